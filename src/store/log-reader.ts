/**
 * Reads a run log back (`coord logs`, `coord viewer`, `coord export`, the server): the events of
 * one attempt directory, replayed through the same reducer the live run used (CONTRIBUTING.md
 * rule 3).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../errors.js";
import { EventLogError, parseEventLog, type CoordEvent } from "../events/index.js";
import { type MetricsJson, replay, type RunState, type StatusJson } from "../session/index.js";

/** One attempt of a run, as read from disk. */
export interface RunLog {
  /** The attempt directory read. */
  dir: string;
  /** events.jsonl, oldest first. */
  events: CoordEvent[];
  /** True when the last line of events.jsonl was cut off (the run crashed mid-write). */
  truncated: boolean;
  /** `replay(events)`: the authoritative view of the run. */
  state: RunState;
  /** status.json as written by the run, when present (may lag `state` after a crash). */
  status?: StatusJson;
  /** metrics.json, present once the writer was closed. */
  metrics?: MetricsJson;
  /** The run's OpenTelemetry trace id (execution_metadata.yaml `trace_id`), when it was traced. */
  traceId?: string;
  /**
   * Where the run's prices came from (execution_metadata.yaml `price_data`, e.g.
   * `@pydantic/genai-prices 0.1.8`); absent in logs written before it was recorded.
   */
  priceData?: string;
}

/**
 * Reads `<attemptDir>/events.jsonl` (and status.json / metrics.json / execution_metadata.yaml
 * when present) and replays the events. Use `resolveAttemptDir` first to turn a log directory into an attempt directory.
 *
 * @param attemptDir a `…/log_<time>/turn_<n>/attempt_<n>` directory.
 * @throws ConfigError when events.jsonl does not exist (names the file and the expected layout).
 * @throws EventLogError when events.jsonl holds an unknown schema version or a malformed line,
 *   or status.json / metrics.json is not valid JSON, or execution_metadata.yaml not valid YAML;
 *   the message names the file (and line).
 */
export async function readRunLog(attemptDir: string): Promise<RunLog> {
  const eventsPath = join(attemptDir, "events.jsonl");
  const text = await readOptional(eventsPath);
  if (text === undefined) {
    throw new ConfigError(
      `${eventsPath} not found: ${attemptDir} is not a coord run attempt directory ` +
        `(expected <root>/log_<YYYYMMDD>_<HHMMSS>/turn_<n>/attempt_<n>/)`,
      { file: eventsPath },
    );
  }
  const { events, truncated } = parseEventLog(text, eventsPath);
  const log: RunLog = { dir: attemptDir, events, truncated, state: replay(events) };
  const metadata = await readMetadata(join(attemptDir, "execution_metadata.yaml"));
  if (typeof metadata.trace_id === "string") log.traceId = metadata.trace_id;
  if (typeof metadata.price_data === "string") log.priceData = metadata.price_data;
  const status = await readJson(join(attemptDir, "status.json"));
  if (status !== undefined) log.status = status as StatusJson;
  const metrics = await readJson(join(attemptDir, "metrics.json"));
  if (metrics !== undefined) log.metrics = metrics as MetricsJson;
  return log;
}

/** execution_metadata.yaml's top-level keys; `{}` when the file is absent or not a mapping. */
async function readMetadata(path: string): Promise<Record<string, unknown>> {
  const text = await readOptional(path);
  if (text === undefined) return {};
  let metadata: unknown;
  try {
    metadata = parseYaml(text) as unknown;
  } catch (error) {
    throw new EventLogError(`${path}: not valid YAML (${(error as Error).message})`);
  }
  return typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : {};
}

async function readJson(path: string): Promise<unknown> {
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EventLogError(`${path}: not valid JSON (${(error as Error).message})`);
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
