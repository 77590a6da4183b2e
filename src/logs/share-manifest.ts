/**
 * The manifest of a shared run (`coord_manifest.json` in the gist; docs/sharing.md "The gist:
 * file names and the manifest", format version 1): what identifies a gist as a coord share and
 * what a share page reads first. Built from the replayed state of each attempt; pure.
 */
import { type RunState, toMetricsJson } from "../session/index.js";

/** The manifest's file name in the gist. */
export const MANIFEST_FILE = "coord_manifest.json";
/** `format` of every manifest. */
export const SHARE_FORMAT = "coord-share";
/** Bumped on an incompatible change of the manifest or the gist layout. */
export const SHARE_FORMAT_VERSION = 1;
/** Every share's gist description starts with this (`coord shares list` finds shares by it). */
export const SHARE_DESCRIPTION_PREFIX = "coord session: ";

/** What an uploaded file is. */
export type ShareFileKind =
  | "events"
  | "status"
  | "metrics"
  | "final_answer"
  | "execution_metadata"
  | "workspace"
  | "analysis"
  | "other";

/** Why a file was left out. */
export type SkipReason =
  | "debug_log"
  | "binary"
  | "empty"
  | "symlink"
  | "too_large"
  | "total_limit"
  | "file_limit"
  | "not_selected";

/** One uploaded file, as the manifest lists it. */
export interface ShareFileEntry {
  /** The gist file name: the path with `/` replaced by `__`. */
  name: string;
  /** The path in the log directory, `/`-separated. */
  path: string;
  /** Size of the uploaded (redacted) content, bytes. */
  bytes: number;
  kind: ShareFileKind;
}

/** One file left out. */
export interface SkippedFileEntry {
  path: string;
  /** Size on disk, bytes. */
  bytes: number;
  reason: SkipReason;
}

/** The five run files of an attempt, by gist file name (null when absent or skipped). */
export type AttemptFiles = Record<
  "events" | "status" | "metrics" | "final_answer" | "execution_metadata",
  string | null
>;

/** One attempt in the manifest. */
export interface ManifestAttempt {
  attempt: number;
  /** `run-end.reason`, `incomplete` without a run-end, `unreadable` when events.jsonl is not. */
  status: string;
  /** The winning agent's id. */
  winner: string | null;
  agents: Array<{ id: string; anon_id: string; backend: string; model: string }>;
  /** ISO-8601 time of `run-start`. */
  started_at: string | null;
  duration_ms: number | null;
  tokens: number | null;
  /** USD; null when a model's price is unknown. */
  cost_usd: number | null;
  files: AttemptFiles;
}

/** One turn in the manifest. */
export interface ManifestTurn {
  turn: number;
  question: string;
  /** Ascending; the last one counts. */
  attempts: ManifestAttempt[];
}

/** `coord_manifest.json`. */
export interface ShareManifest {
  format: typeof SHARE_FORMAT;
  version: typeof SHARE_FORMAT_VERSION;
  coord_version: string;
  /** ISO-8601. */
  created_at: string;
  /** The `log_…` directory's name. */
  log_name: string;
  /** The first shared turn's question. */
  question: string;
  turns: ManifestTurn[];
  files: ShareFileEntry[];
  skipped: SkippedFileEntry[];
  /** Always true: secrets were redacted in every file. */
  redacted: true;
}

/** An attempt's replayed state, or why it could not be read. */
export type AttemptReading = { state: RunState } | { error: string };

/**
 * The manifest entry of an attempt.
 * @param reading the attempt's replayed state (src/store readRunLog) or its read error.
 */
export function manifestAttempt(
  attempt: number,
  reading: AttemptReading,
  files: AttemptFiles,
): ManifestAttempt {
  if ("error" in reading) {
    return {
      attempt,
      status: "unreadable",
      winner: null,
      agents: [],
      started_at: null,
      duration_ms: null,
      tokens: null,
      cost_usd: null,
      files,
    };
  }
  const { state } = reading;
  const metrics = toMetricsJson(state);
  return {
    attempt,
    status: state.endReason ?? "incomplete",
    winner: state.winner?.agentId ?? null,
    agents: state.agents.map((agent) => ({
      id: agent.id,
      anon_id: agent.anonId,
      backend: agent.backend,
      model: agent.model,
    })),
    started_at: state.startedAt === null ? null : new Date(state.startedAt).toISOString(),
    duration_ms: metrics.wall_time_ms,
    tokens: metrics.totals.tokens.total,
    cost_usd: metrics.totals.cost_usd,
    files,
  };
}

/** The gist description: `coord session: <question>`, one line, at most 120 characters of it. */
export function shareDescription(question: string): string {
  const flat = question.replace(/\s+/g, " ").trim();
  const cut = flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
  return `${SHARE_DESCRIPTION_PREFIX}${cut || "(no question)"}`;
}

/** A path in the log directory → its gist file name (`turn_1/attempt_1/x` → `turn_1__attempt_1__x`). */
export function gistFileName(path: string): string {
  return path.split("/").join("__");
}
