/**
 * The results file of `coord eval` (`<eval dir>/results.jsonl`, docs/eval.md "Files"): JSON
 * Lines, append-only, versioned. The first line describes the eval (data set and config, by
 * SHA-256); then one line per finished run of one item (`type: "run"`: the team, an agent alone,
 * a self-consistency sample…) and per judge verdict (`type: "judge"`). Scores are not stored:
 * the report scores the stored answers, so a different `--scorer` re-reports without model calls.
 *
 * An eval that was killed resumes from this file: a run already recorded as `completed` is not
 * run again. A last line cut off by the kill is cut from the file when it is opened again.
 */
import { appendFile, mkdir, readFile, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { ConfigError, StoredFileError } from "../errors.js";

/** Schema version of every line's `v`. */
export const RESULTS_VERSION = 1;

/** The first line: what the eval is of. */
export const ResultsHeader = z.object({
  type: z.literal("eval"),
  v: z.literal(RESULTS_VERSION),
  /** ISO-8601 time the file was created. */
  created: z.string(),
  /** Absolute path of the data set when the file was created. */
  dataset: z.string(),
  dataset_sha256: z.string(),
  /** Absolute path of the team's config. */
  config: z.string(),
  /** SHA-256 of the loaded config as JSON, with API keys left out. */
  config_sha256: z.string(),
  fields: z.object({ question: z.string(), answer: z.string(), id: z.string().nullable() }),
});
export type ResultsHeader = z.infer<typeof ResultsHeader>;

const usageFields = {
  /** Model calls (the run's `usage` events). */
  calls: z.number().int().nonnegative(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** USD; null when some call had no price (never guessed). */
  cost_usd: z.number().nonnegative().nullable(),
  /** Wall time of the run, ms. */
  wall_ms: z.number().nonnegative(),
  /** The run's attempt directory, relative to the eval directory; null without logs. */
  log_dir: z.string().nullable(),
  /** How the run ended (`run-end.reason`). */
  status: z.enum(["completed", "failed", "timeout", "interrupted", "shutdown"]),
  /** Why it failed, one line; null when it did not. */
  error: z.string().nullable(),
  /** ISO-8601 time the line was written. */
  time: z.string(),
};

/** Characters kept from the end of each team answer in a run record. */
export const ANSWER_TAIL_CHARS = 2000;

/** One finished run of one item. */
export const RunRecord = z.object({
  type: z.literal("run"),
  v: z.literal(RESULTS_VERSION),
  item: z.string(),
  /** The run's key: `team`, `quick`, `agent:<id>`, `sc:<id>:<n>` (src/eval/plan.ts). */
  run: z.string(),
  /** The final answer; null when the run gave none. */
  answer: z.string().nullable(),
  /**
   * Team runs: every answer the team accepted (first answers and revisions, in order), each cut
   * to its last {@link ANSWER_TAIL_CHARS} characters (where a short answer's conclusion is), for
   * the report's selection loss. Absent for single-agent runs and in older files.
   */
  answers: z.array(z.string()).optional(),
  /** Team runs: the winning answer as given (cut like `answers`); null when there was no winner. */
  winning_answer: z.string().nullable().optional(),
  ...usageFields,
});
export type RunRecord = z.infer<typeof RunRecord>;

/** One judge verdict on one answer to one item. */
export const JudgeRecord = z.object({
  type: z.literal("judge"),
  v: z.literal(RESULTS_VERSION),
  item: z.string(),
  /** SHA-256 of the judged answer's text. */
  answer_sha256: z.string(),
  /** `unclear`: the judge's reply said neither CORRECT nor INCORRECT (scored as incorrect). */
  verdict: z.enum(["correct", "incorrect", "unclear"]).nullable(),
  /** The judge's final answer, cut to 300 characters. */
  reply: z.string().nullable(),
  ...usageFields,
});
export type JudgeRecord = z.infer<typeof JudgeRecord>;

const Line = z.discriminatedUnion("type", [ResultsHeader, RunRecord, JudgeRecord]);

/** The results file, read and open for appending. */
export interface ResultsFile {
  path: string;
  header: ResultsHeader;
  /** The latest record of each run: run key → item id → record. */
  runs: Map<string, Map<string, RunRecord>>;
  /** The latest verdict per item and answer: `item` + NUL + `answer_sha256` → record. */
  judges: Map<string, JudgeRecord>;
  /** Appends one record (one line) and updates the maps. */
  append(record: RunRecord | JudgeRecord): Promise<void>;
}

/** The key of {@link ResultsFile.judges}. */
export function judgeKey(item: string, answerSha256: string): string {
  return `${item}\u0000${answerSha256}`;
}

/**
 * Opens the results file: creates it with `header` when it does not exist, else reads it and
 * checks that it is an eval of the same data set and config.
 * @throws ConfigError when the file belongs to another data set, config or field mapping.
 * @throws StoredFileError for a line that is not a known record (other than a cut-off last line).
 */
export async function openResults(path: string, header: ResultsHeader): Promise<ResultsFile> {
  let text: string | undefined;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const runs = new Map<string, Map<string, RunRecord>>();
  const judges = new Map<string, JudgeRecord>();
  const remember = (record: RunRecord | JudgeRecord) => {
    if (record.type === "run") {
      let byItem = runs.get(record.run);
      if (byItem === undefined) {
        byItem = new Map<string, RunRecord>();
        runs.set(record.run, byItem);
      }
      byItem.set(record.item, record);
    } else {
      judges.set(judgeKey(record.item, record.answer_sha256), record);
    }
  };
  let stored = header;
  if (text === undefined || text.trim() === "") {
    await mkdir(dirname(path), { recursive: true });
    await appendFile(path, `${JSON.stringify(header)}\n`);
  } else {
    const lines = text.split("\n");
    const last = lines.length - 1;
    let first = true;
    for (const [index, line] of lines.entries()) {
      if (line.trim() === "") continue;
      const parsed = parseLine(line);
      if (parsed === undefined && index === last && !first) {
        // Cut off by a kill mid-write: drop it from the file, so appends start on a clean line.
        await truncate(path, Buffer.byteLength(lines.slice(0, last).join("\n")) + 1);
        continue;
      }
      if (parsed === undefined || (parsed.type === "eval") !== first) {
        throw new StoredFileError(
          `${path}:${index + 1}: not ${first ? "the header" : "a record"} of a coord eval results file (version ${RESULTS_VERSION}); delete the file or choose another --out`,
        );
      }
      if (parsed.type === "eval") stored = parsed;
      else remember(parsed);
      first = false;
    }
    assertSameEval(path, stored, header);
  }
  return {
    path,
    header: stored,
    runs,
    judges,
    async append(record) {
      await appendFile(path, `${JSON.stringify(record)}\n`);
      remember(record);
    },
  };
}

function parseLine(line: string): z.infer<typeof Line> | undefined {
  try {
    const result = Line.safeParse(JSON.parse(line));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

function assertSameEval(path: string, stored: ResultsHeader, wanted: ResultsHeader): void {
  const fix = `delete ${path} to start over, or choose another --out`;
  if (stored.dataset_sha256 !== wanted.dataset_sha256)
    throw new ConfigError(
      `${path} holds an eval of another data set (${stored.dataset}, different content); ${fix}`,
    );
  if (stored.config_sha256 !== wanted.config_sha256)
    throw new ConfigError(
      `${path} holds an eval of another team config (${stored.config} as it was then); ${fix}`,
    );
  const fields = (header: ResultsHeader) => JSON.stringify(header.fields);
  if (fields(stored) !== fields(wanted))
    throw new ConfigError(
      `${path} holds an eval with other fields (${fields(stored)}); use the same --question-field/--answer-field/--id-field, or ${fix}`,
    );
}
