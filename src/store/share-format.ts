/**
 * The files of a shared session (spec section 4.2 `coord export`; docs/web.md "Share viewer"):
 * a secret gist holding, for each turn and attempt, the run log's files under flat names
 * (gists have no folders), and a manifest that identifies the gist as a coord session and maps
 * each file back to its place in the log. `coord export` writes it, `coord shares list` finds
 * gists by it, and the share viewer page reads it. Pure (no IO): the page bundles it too.
 */

/** The manifest's file name in the gist. */
export const SHARE_MANIFEST_FILE = "coord_share.json";
/** The manifest's `format` value. */
export const SHARE_FORMAT = "coord-share";
/** The manifest's `version`; readers refuse versions they do not know. */
export const SHARE_FORMAT_VERSION = 1;

/** One turn's attempt in the gist. */
export interface ShareAttempt {
  turn: number;
  attempt: number;
  question: string;
  /**
   * The attempt's files: path relative to the attempt directory (`events.jsonl`, `status.json`,
   * `metrics.json`, `final_answer.md`, `execution_metadata.yaml`, workspace files) → gist file
   * name ({@link shareFileName}).
   */
  files: Record<string, string>;
}

/** `coord_share.json`. Times are ISO-8601 UTC. */
export interface ShareManifest {
  format: typeof SHARE_FORMAT;
  version: typeof SHARE_FORMAT_VERSION;
  coord_version: string;
  created_at: string;
  /** The `log_…` directory's name. */
  log_name: string;
  /** The first turn's question. */
  question: string;
  attempts: ShareAttempt[];
  /** Files left out (binary, too large), with why. */
  skipped: Array<{ path: string; reason: string }>;
}

/** Thrown for a gist that is not a readable coord session. */
export class ShareFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShareFormatError";
  }
}

/** The gist file name of an attempt's file: `turn_1__attempt_1__events.jsonl` (`/` → `__`). */
export function shareFileName(turn: number, attempt: number, path: string): string {
  return `turn_${turn}__attempt_${attempt}__${path.split("/").join("__")}`;
}

/**
 * Reads a manifest's text.
 * @throws ShareFormatError when it is not JSON, not a coord share, or of an unknown version.
 */
export function parseShareManifest(text: string): ShareManifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ShareFormatError(`${SHARE_MANIFEST_FILE} is not valid JSON`);
  }
  const manifest = data as Partial<ShareManifest> | null;
  if (manifest?.format !== SHARE_FORMAT) {
    throw new ShareFormatError(`${SHARE_MANIFEST_FILE} does not describe a coord session`);
  }
  if (manifest.version !== SHARE_FORMAT_VERSION) {
    throw new ShareFormatError(
      `${SHARE_MANIFEST_FILE} has version ${String(manifest.version)}; this viewer reads version ${SHARE_FORMAT_VERSION}`,
    );
  }
  if (!Array.isArray(manifest.attempts)) {
    throw new ShareFormatError(`${SHARE_MANIFEST_FILE} lists no attempts`);
  }
  return {
    ...manifest,
    skipped: Array.isArray(manifest.skipped) ? manifest.skipped : [],
  } as ShareManifest;
}
