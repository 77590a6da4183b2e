/**
 * `coord logs analyze` (spec section 4.2): the prompt that asks a coding assistant — or coord's
 * own analysis team with `--mode self` — to analyse a run log: which directory, which files and
 * what they hold, what to look for, and where the report goes (`ANALYSIS_REPORT.md`, whose
 * presence marks the run as analyzed).
 */
import { readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { SelectedRun } from "./select-run.js";
import { LOGS_JSON_VERSION } from "./version.js";

/** The report file in a log directory (spec section 2 "Log directory"). */
export const ANALYSIS_REPORT_FILE = "ANALYSIS_REPORT.md";

/** Where `--mode self` writes its own run log, inside the analysed log directory. */
export const ANALYSIS_LOGS_DIR = "analysis_logs";

/** One file of a log directory. `path` is relative to the log directory, `/`-separated. */
export interface LogFileJson {
  path: string;
  bytes: number;
  /** What the file holds; null for files coord does not know. */
  description: string | null;
}

/** `coord logs analyze --json` (prompt mode). */
export interface LogsAnalyzePromptJson {
  version: number;
  mode: "prompt";
  log_dir: string;
  attempt_dir: string;
  turn: number;
  attempt: number;
  report_path: string;
  files: LogFileJson[];
  prompt: string;
}

const DESCRIPTIONS: Record<string, string> = {
  "events.jsonl":
    "every event of the attempt, one JSON object per line (docs/events.md): rounds, answers, votes, refused votes, tool calls and results with durationMs, usage of each model call (tokens, durationMs, timeToFirstTokenMs), agent errors, the winner, the final answer, run-end",
  "status.json":
    "the last snapshot of the run: phase, each agent's status and last error, answers, votes, winner",
  "metrics.json":
    "tokens, cost, model-call time, rounds by outcome and tools, per agent and in total (written when the run closed; absent after a crash)",
  "final_answer.md": "the final answer",
  "execution_metadata.yaml":
    "the question, the config (secrets redacted), the command-line arguments, the coord version",
  "coord_debug.log": "the verbose trace written with --debug",
  [ANALYSIS_REPORT_FILE]: "an earlier analysis of this run",
};

/** What an analysis should cover; shared by the prompt and the self-analysis question. */
export const ANALYSIS_CHECKLIST = [
  "Outcome: did the run complete (run-end reason)? Is the final answer correct and complete for the question, and did the winning answer deserve its votes?",
  "Coordination: rounds per agent, answers versus votes, refused votes (vote-refused) and votes-reset, whether the agents converged or kept rewriting, invalid workflow calls (workflow-invalid).",
  "Errors and timeouts: agent-error events (provider, status, retryable, fatal = removed from the team), aborted rounds, the orchestrator timeout.",
  "Cost and time: tokens and cost per agent, model-call time and time to first token per backend, which agent or round took the wall time (round-end.durationMs), slow or failing tools (tool-result.durationMs, isError).",
  "Recommendations: concrete changes to the config (models, timeouts, orchestrator.voting_sensitivity, max_new_answers_per_agent, system messages) or to coord itself, each backed by evidence from the log (event seq numbers, file names).",
];

/**
 * The files of a log directory, sorted by path, without the analysis team's own run logs.
 * @throws the file system error when the directory cannot be read.
 */
export async function listLogFiles(logDir: string): Promise<LogFileJson[]> {
  const files: LogFileJson[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === logDir && entry.name === ANALYSIS_LOGS_DIR) continue;
        await walk(path);
      } else if (entry.isFile()) {
        files.push({
          path: relative(logDir, path).split(sep).join("/"),
          bytes: (await stat(path)).size,
          description: DESCRIPTIONS[entry.name] ?? null,
        });
      }
    }
  };
  await walk(logDir);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The prompt for a coding assistant (`--mode prompt`). Pure.
 * @param where the attempt the user picked (the latest by default).
 * @param files from {@link listLogFiles}.
 */
export function analysisPrompt(where: SelectedRun, files: readonly LogFileJson[]): string {
  const report = join(where.logDir, ANALYSIS_REPORT_FILE);
  const multi = where.turns.length > 1 || where.attempts.length > 1;
  return [
    "Analyse this run of coord, a CLI that runs a team of model-backed agents on a question (they answer in parallel, read each other's answers, vote or refine, and one agent presents the final answer).",
    "",
    `Log directory: ${where.logDir}`,
    `Focus on turn ${where.turn}, attempt ${where.attempt} (${where.attemptDir})` +
      (multi
        ? `; the directory holds turns ${where.turns.join(", ")} and attempts ${where.attempts.join(", ")} of turn ${where.turn}.`
        : "."),
    "",
    "Files (bytes):",
    ...files.map((file) => `- ${file.path} (${file.bytes})`),
    "",
    "What they hold:",
    ...describedKinds(files).map(([name, description]) => `- ${name}: ${description}`),
    "",
    "`coord logs summary --log-dir <dir>` and `coord logs tools --log-dir <dir>` print the numbers (add --json for JSON).",
    "",
    "Look for:",
    ...ANALYSIS_CHECKLIST.map((item, index) => `${index + 1}. ${item}`),
    "",
    `Read the files, do not change them. Write your findings as Markdown to ${report}: a short verdict first, then one section per point above. Its presence marks the run as analyzed in \`coord logs list\`.`,
  ].join("\n");
}

/** The known file names among `files`, once each, in {@link DESCRIPTIONS} order. */
function describedKinds(files: readonly LogFileJson[]): Array<[string, string]> {
  const present = new Set(files.map((file) => file.path.split("/").at(-1)));
  return Object.entries(DESCRIPTIONS).filter(([name]) => present.has(name));
}

/** The `--json` form of the prompt mode. Pure. */
export function analysisPromptJson(
  where: SelectedRun,
  files: readonly LogFileJson[],
): LogsAnalyzePromptJson {
  return {
    version: LOGS_JSON_VERSION,
    mode: "prompt",
    log_dir: where.logDir,
    attempt_dir: where.attemptDir,
    turn: where.turn,
    attempt: where.attempt,
    report_path: join(where.logDir, ANALYSIS_REPORT_FILE),
    files: [...files],
    prompt: analysisPrompt(where, files),
  };
}
