/**
 * The share page's reading of `coord_manifest.json`, the manifest `coord export` puts in a
 * shared run's gist (docs/sharing.md "The gist: file names and the manifest", format version 1).
 * The gist comes from anyone, so every field the page uses is checked here; a manifest this page
 * cannot read is a {@link ShareFormatError} with a message for the page. Pure (no IO).
 */

/** The manifest's file name in the gist. */
export const MANIFEST_FILE = "coord_manifest.json";
/** `format` of every manifest. */
export const SHARE_FORMAT = "coord-share";
/** The manifest version this page reads. */
export const SHARE_FORMAT_VERSION = 1;

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

/** One attempt as the page uses it. */
export interface ManifestAttempt {
  attempt: number;
  /** `run-end.reason`, `incomplete` or `unreadable`. */
  status: string;
  winner: string | null;
  /** Gist file names of the run files; null when absent or skipped. */
  files: Record<RunFileKey, string | null>;
}

/** One turn. */
export interface ManifestTurn {
  turn: number;
  question: string;
  attempts: ManifestAttempt[];
}

/** One uploaded file: its gist name, its path in the log directory, its kind. */
export interface ManifestFile {
  name: string;
  path: string;
  bytes: number;
  /** `events`, `status`, `metrics`, `final_answer`, `execution_metadata`, `workspace`, `analysis`, `other`. */
  kind: string;
}

/** One file left out, with why (`binary`, `too_large`, …). */
export interface ManifestSkipped {
  path: string;
  bytes: number;
  reason: string;
}

/** What the page reads of `coord_manifest.json`. Times are ISO-8601. */
export interface ShareManifest {
  coord_version: string;
  created_at: string;
  log_name: string;
  question: string;
  turns: ManifestTurn[];
  files: ManifestFile[];
  skipped: ManifestSkipped[];
}

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
export function parseShareManifest(text: string): ShareManifest {
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

  const turns = list(data.turns, "turns").map((value, index): ManifestTurn => {
    const at = `turns[${index}]`;
    const turn = object(value, at);
    return {
      turn: integer(turn.turn, `${at}.turn`),
      question: string(turn.question, `${at}.question`),
      attempts: list(turn.attempts, `${at}.attempts`).map((item, number): ManifestAttempt => {
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
          ) as Record<RunFileKey, string | null>,
        };
      }),
    };
  });
  const files = list(data.files ?? [], "files").map((value, index): ManifestFile => {
    const file = object(value, `files[${index}]`);
    return {
      name: string(file.name, `files[${index}].name`),
      path: string(file.path, `files[${index}].path`),
      bytes: typeof file.bytes === "number" ? file.bytes : 0,
      kind: typeof file.kind === "string" ? file.kind : "other",
    };
  });
  const skipped = list(data.skipped ?? [], "skipped").map((value, index): ManifestSkipped => {
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
