/**
 * Markdown to HTML for model output (final answers, answers, workspace .md files) with marked,
 * made safe to put in the page: raw HTML in the text is shown as text (escaped), links keep only
 * http(s), mailto and in-page targets and open in a new tab, and images are not loaded (a link
 * stands in for them: a remote image would call out from the page). Pure: runs in Node too.
 */
import { Marked, type Tokens } from "marked";

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** The URL when it is safe to link to, else null. */
export function safeUrl(href: string): string | null {
  const trimmed = href.trim();
  if (trimmed.startsWith("#")) return trimmed;
  return /^(https?:|mailto:)/i.test(trimmed) ? trimmed : null;
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    link(token: Tokens.Link) {
      const inner = this.parser.parseInline(token.tokens);
      const url = safeUrl(token.href);
      if (url === null) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(url)}"${title} target="_blank" rel="noopener noreferrer">${inner}</a>`;
    },
    image(token: Tokens.Image) {
      const url = safeUrl(token.href);
      const label = `[image: ${escapeHtml(token.text || token.href)}]`;
      return url === null
        ? label
        : `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${label}</a>`;
    },
  },
});

/** Renders Markdown to HTML safe to set as innerHTML. */
export function renderMarkdown(text: string): string {
  return marked.parse(text, { async: false });
}
