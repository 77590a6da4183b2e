import { useMemo } from "react";
import { renderMarkdown } from "../markdown.js";

/** Model output rendered as sanitized Markdown (markdown.ts). */
export function MarkdownView({ text, testId }: { text: string; testId?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div className="markdown" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
