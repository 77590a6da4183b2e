/**
 * `coord logs analyze --mode self` (spec section 4.2): the question put to the analysis team and
 * the report written from its answer. The team is read-only and has no file tools yet, so the
 * question carries what it needs: the summary, the attempt's key files and a condensed trace,
 * each capped so a long run still fits a model's context.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ANALYSIS_CHECKLIST, ANALYSIS_REPORT_FILE } from "./analysis-prompt.js";
import type { SelectedRun } from "./select-run.js";

/** Files of the attempt directory quoted in the question, in this order. */
export const QUOTED_FILES = [
  "metrics.json",
  "status.json",
  "final_answer.md",
  "execution_metadata.yaml",
] as const;

/** Characters kept of each quoted file and of the trace (the rest is cut with a note). */
export const QUOTE_CAP_CHARS = 12_000;
export const TRACE_CAP_CHARS = 40_000;

/** One file's content for the question; `text` null when the file does not exist. */
export interface QuotedFile {
  name: string;
  text: string | null;
}

/**
 * Reads {@link QUOTED_FILES} of the attempt directory (missing files are `text: null`).
 * @throws the file system error for anything but a missing file.
 */
export async function readQuotedFiles(attemptDir: string): Promise<QuotedFile[]> {
  const files: QuotedFile[] = [];
  for (const name of QUOTED_FILES) {
    try {
      files.push({ name, text: await readFile(join(attemptDir, name), "utf8") });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      files.push({ name, text: null });
    }
  }
  return files;
}

/** What {@link analysisQuestion} quotes. */
export interface AnalysisMaterial {
  where: SelectedRun;
  /** `coord logs summary` as text. */
  summaryText: string;
  /** The attempt's trace, one labelled line per entry (`[agent] …`). */
  traceText: string;
  files: readonly QuotedFile[];
}

/** The question for the analysis team. Pure. */
export function analysisQuestion(material: AnalysisMaterial): string {
  const { where } = material;
  const sections = [
    "Analyse this run of coord, a CLI that runs a team of model-backed agents on a question (they answer in parallel, read each other's answers, vote or refine, and one agent presents the final answer).",
    `The run log is ${where.logDir}, turn ${where.turn}, attempt ${where.attempt}. You cannot open files: everything you need is quoted below (the summary, the key files, and a trace of every event).`,
    "Cover:\n" + ANALYSIS_CHECKLIST.map((item, index) => `${index + 1}. ${item}`).join("\n"),
    "Answer with the report itself, in Markdown: a short verdict first, then one section per point. It is saved as " +
      `${ANALYSIS_REPORT_FILE} in the log directory.`,
    fenced("Summary (coord logs summary)", material.summaryText, "text"),
    ...material.files.map((file) =>
      file.text === null
        ? `## ${file.name}\n\n(not present)`
        : fenced(file.name, file.text, fenceLanguage(file.name)),
    ),
    fenced("Trace (every event, one line each)", material.traceText, "text", TRACE_CAP_CHARS),
  ];
  return sections.join("\n\n");
}

/** Options of {@link analysisReport}. */
export interface ReportHeader {
  where: SelectedRun;
  /** The analysis team's config: a path, or `@examples/…`. */
  config: string;
  /** The analysis team's agent ids. */
  agents: readonly string[];
  /** The analysis run's own log directory, when it was logged. */
  analysisLogDir?: string | undefined;
}

/** ANALYSIS_REPORT.md: a provenance comment, then the team's final answer. Pure. */
export function analysisReport(header: ReportHeader, finalAnswer: string): string {
  const where = header.where;
  const log =
    header.analysisLogDir === undefined ? "" : ` The analysis run's log: ${header.analysisLogDir}.`;
  return [
    `<!-- Written by \`coord logs analyze --mode self\` for turn ${where.turn}, attempt ${where.attempt} of this log directory, by the analysis team ${header.config} (${header.agents.join(", ")}). The team was read-only: it saw the summary, metrics.json, status.json, final_answer.md, execution_metadata.yaml and the event trace quoted in its question, and had no file tools.${log} -->`,
    "",
    finalAnswer.trimEnd(),
    "",
  ].join("\n");
}

/** A Markdown section with the text fenced; over `cap` characters, the middle is cut. */
function fenced(title: string, text: string, language: string, cap = QUOTE_CAP_CHARS): string {
  const half = Math.floor(cap / 2);
  const kept =
    text.length <= cap
      ? text.trimEnd()
      : `${text.slice(0, half).trimEnd()}\n… (${text.length - 2 * half} characters cut) …\n${text.slice(-half).trimEnd()}`;
  const fence = kept.includes("```") ? "````" : "```";
  return `## ${title}\n\n${fence}${language}\n${kept}\n${fence}`;
}

function fenceLanguage(name: string): string {
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".yaml")) return "yaml";
  if (name.endsWith(".md")) return "markdown";
  return "text";
}
