/**
 * The manifest of a shared run (`coord_manifest.json` in the gist; docs/sharing.md "The gist:
 * file names and the manifest", format version 1), defined once for both sides: `coord export`
 * writes it (src/logs/share-bundle.ts builds it from the replayed state of each attempt with
 * {@link manifestAttempt}) and the share page reads it ({@link parseShareManifest}; the gist comes
 * from anyone, so every field the page uses is checked). Pure: no Node modules, so the page
 * bundles it.
 */
import { toMetricsJson } from "./metrics-json.js";
import type { RunState } from "./run-state.js";

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

/** The five run files of an attempt, by their manifest key. */
export const RUN_FILE_KEYS = [
  "events",
  "status",
  "metrics",
  "final_answer",
  "execution_metadata",
] as const;
export type RunFileKey = (typeof RUN_FILE_KEYS)[number];

/** The run files' names in an attempt directory. */
export const RUN_FILE_NAMES: Readonly<Record<RunFileKey, string>> = {
  events: "events.jsonl",
  status: "status.json",
  metrics: "metrics.json",
  final_answer: "final_answer.md",
  execution_metadata: "execution_metadata.yaml",
};

/** The five run files of an attempt, by gist file name (null when absent or skipped). */
export type AttemptFiles = Record<RunFileKey, string | null>;

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

/**
 * What a share page can count on after {@link parseShareManifest}: the fields it checks, with
 * kinds and reasons left open (a newer coord may add some).
 */
export interface ShareManifestView extends Pick<
  ShareManifest,
  "coord_version" | "created_at" | "log_name" | "question"
> {
  turns: ManifestTurnView[];
  files: ManifestFileView[];
  skipped: ManifestSkippedView[];
}

/** A turn as the page reads it. */
export interface ManifestTurnView extends Omit<ManifestTurn, "attempts"> {
  attempts: ManifestAttemptView[];
}

/** An attempt as the page reads it. */
export type ManifestAttemptView = Pick<ManifestAttempt, "attempt" | "status" | "winner" | "files">;

/** An uploaded file as the page reads it (`kind`: a {@link ShareFileKind}, or `other`). */
export type ManifestFileView = Omit<ShareFileEntry, "kind"> & { kind: string };

/** A file left out as the page reads it (`reason`: a {@link SkipReason}, or `unknown`). */
export type ManifestSkippedView = Omit<SkippedFileEntry, "reason"> & { reason: string };

/** A gist that is not a coord share this page can read. */
export class ShareFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShareFormatError";
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads the manifest's text.
 * @throws ShareFormatError when it is not JSON, not a coord share, of a version this page does not
 *   read, or missing a field the page needs (the message names it).
 */
export function parseShareManifest(text: string): ShareManifestView {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ShareFormatError(`${MANIFEST_FILE} is not valid JSON`);
  }
  if (!isObject(data) || data.format !== SHARE_FORMAT) {
    throw new ShareFormatError(`${MANIFEST_FILE} does not describe a coord share`);
  }
  if (data.version !== SHARE_FORMAT_VERSION) {
    throw new ShareFormatError(
      `${MANIFEST_FILE} has version ${String(data.version)}; this page reads version ${SHARE_FORMAT_VERSION}: open the share with a newer coord's page`,
    );
  }
  const bad = (field: string): never => {
    throw new ShareFormatError(`${MANIFEST_FILE}: ${field} is missing or malformed`);
  };
  const string = (value: unknown, field: string): string =>
    typeof value === "string" ? value : bad(field);
  const integer = (value: unknown, field: string): number =>
    Number.isInteger(value) ? (value as number) : bad(field);
  const list = (value: unknown, field: string): unknown[] =>
    Array.isArray(value) ? value : bad(field);
  const object = (value: unknown, field: string): Json => (isObject(value) ? value : bad(field));

  const turns = list(data.turns, "turns").map((value, index): ManifestTurnView => {
    const at = `turns[${index}]`;
    const turn = object(value, at);
    return {
      turn: integer(turn.turn, `${at}.turn`),
      question: string(turn.question, `${at}.question`),
      attempts: list(turn.attempts, `${at}.attempts`).map((item, number): ManifestAttemptView => {
        const where = `${at}.attempts[${number}]`;
        const attempt = object(item, where);
        const files = object(attempt.files, `${where}.files`);
        return {
          attempt: integer(attempt.attempt, `${where}.attempt`),
          status: string(attempt.status, `${where}.status`),
          winner: typeof attempt.winner === "string" ? attempt.winner : null,
          files: Object.fromEntries(
            RUN_FILE_KEYS.map((key) => {
              const name = files[key];
              return [key, name == null ? null : string(name, `${where}.files.${key}`)];
            }),
          ) as AttemptFiles,
        };
      }),
    };
  });
  const files = list(data.files ?? [], "files").map((value, index): ManifestFileView => {
    const file = object(value, `files[${index}]`);
    return {
      name: string(file.name, `files[${index}].name`),
      path: string(file.path, `files[${index}].path`),
      bytes: typeof file.bytes === "number" ? file.bytes : 0,
      kind: typeof file.kind === "string" ? file.kind : "other",
    };
  });
  const skipped = list(data.skipped ?? [], "skipped").map((value, index): ManifestSkippedView => {
    const item = object(value, `skipped[${index}]`);
    return {
      path: string(item.path, `skipped[${index}].path`),
      bytes: typeof item.bytes === "number" ? item.bytes : 0,
      reason: typeof item.reason === "string" ? item.reason : "unknown",
    };
  });
  return {
    coord_version: typeof data.coord_version === "string" ? data.coord_version : "unknown",
    created_at: string(data.created_at, "created_at"),
    log_name: string(data.log_name, "log_name"),
    question: typeof data.question === "string" ? data.question : "",
    turns,
    files,
    skipped,
  };
}
