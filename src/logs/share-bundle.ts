/**
 * What `coord export` uploads (spec §4.2; docs/sharing.md "What is uploaded"): the files of the
 * chosen turns of a log directory — every attempt's run files, workspace files within the size
 * limits, the log's ANALYSIS_REPORT.md — read, checked (text, not empty, not too large) and
 * redacted, plus the manifest. Reads files; uploads nothing.
 */
import { lstat, readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { ConfigError } from "../errors.js";
import { readResolvedFile } from "../regular-file.js";
import {
  attemptDirName,
  LOG_FILES,
  listAttempts,
  listTurns,
  readRunLog,
  turnDirName,
} from "../store/index.js";
import {
  type AttemptFiles,
  type AttemptReading,
  gistFileName,
  type ManifestTurn,
  manifestAttempt,
  SHARE_FORMAT,
  SHARE_FORMAT_VERSION,
  shareDescription,
  type ShareFileEntry,
  type ShareFileKind,
  type ShareManifest,
  type SkippedFileEntry,
  type SkipReason,
} from "../session/index.js";

/** Which turns: `all`, `latest`, one turn, or an inclusive range. */
export type TurnSpec =
  { kind: "all" } | { kind: "latest" } | { kind: "range"; from: number; to: number };

/** Size limits (docs/sharing.md): bytes and file counts. */
export const SHARE_LIMITS = {
  /** A run file (events.jsonl, status.json, …) larger than this is skipped. */
  maxRunFileBytes: 10_000_000,
  /** A workspace file larger than this is skipped. */
  maxWorkspaceFileBytes: 1_000_000,
  /** Workspace files beyond this total are skipped. */
  maxWorkspaceTotalBytes: 5_000_000,
  /** Files in the gist, the manifest included (the gist API lists at most 300). */
  maxFiles: 250,
} as const;

/** A file to upload. */
export interface ShareFile extends ShareFileEntry {
  /** The redacted text. */
  content: string;
}

/** Everything to upload, and what was left out. */
export interface ShareBundle {
  logDir: string;
  /** The shared turn numbers, ascending. */
  turns: number[];
  /** The files, manifest excluded, in upload order. */
  files: ShareFile[];
  skipped: SkippedFileEntry[];
  manifest: ShareManifest;
  /** The manifest as uploaded (redacted JSON). */
  manifestContent: string;
  /** The gist description. */
  description: string;
  /** Bytes of every file, manifest included. */
  totalBytes: number;
}

/** Options of {@link collectShareBundle}. */
export interface CollectShareOptions {
  /** The `log_…` directory, absolute. */
  logDir: string;
  turns: TurnSpec;
  /** Include workspace files (false: `--no-workspace`). */
  workspace: boolean;
  /** Redacts one text (src/store redactText with the known secret values). */
  redact: (text: string) => string;
  coordVersion: string;
  now: Date;
}

/**
 * Parses `--turns`: `all`, `latest`, `N` or `N-M` (1-based, N ≤ M).
 * @throws Error saying what is accepted.
 */
export function parseTurnSpec(text: string): TurnSpec {
  const value = text.trim();
  if (value === "all" || value === "latest") return { kind: value };
  const match = /^([1-9]\d*)(?:-([1-9]\d*))?$/.exec(value);
  if (match) {
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from <= to) return { kind: "range", from, to };
  }
  throw new Error(
    `--turns must be all, latest, N or N-M (1-based, N <= M), got ${JSON.stringify(text)}`,
  );
}

/**
 * Collects the bundle.
 * @throws ConfigError when `logDir` has no turn directory, or a chosen turn does not exist.
 */
export async function collectShareBundle(options: CollectShareOptions): Promise<ShareBundle> {
  const available = await listTurns(options.logDir);
  if (available.length === 0) {
    throw new ConfigError(
      `${options.logDir} has no turn_<n> directory: not a coord run log (expected <root>/log_<YYYYMMDD>_<HHMMSS>/turn_<n>/attempt_<n>/)`,
      { file: options.logDir },
    );
  }
  const turns = chooseTurns(options.turns, available, options.logDir);
  const collector = createCollector(options);

  // The log directory's own files (ANALYSIS_REPORT.md; the debug log is left out).
  for (const entry of await sortedEntries(options.logDir)) {
    if (entry.isDirectory()) continue;
    const kind: ShareFileKind = entry.name === "ANALYSIS_REPORT.md" ? "analysis" : "other";
    await collector.add(entry.name, kind, entry.name === LOG_FILES.debug ? "debug_log" : undefined);
  }

  const manifestTurns: ManifestTurn[] = [];
  for (const turn of turns) {
    const turnPath = turnDirName(turn);
    const attempts: ManifestTurn["attempts"] = [];
    let question = "";
    for (const attempt of await listAttempts(join(options.logDir, turnPath))) {
      const attemptPath = `${turnPath}/${attemptDirName(attempt)}`;
      const files = await collector.addAttempt(attemptPath);
      const reading = await readAttempt(join(options.logDir, turnPath, attemptDirName(attempt)));
      if ("state" in reading && question === "") question = reading.state.question;
      attempts.push(manifestAttempt(attempt, reading, files));
    }
    // Files of the turn directory outside its attempts, if any.
    for (const entry of await sortedEntries(join(options.logDir, turnPath))) {
      if (!entry.isDirectory()) await collector.add(`${turnPath}/${entry.name}`, "other");
    }
    manifestTurns.push({ turn, question: options.redact(question), attempts });
  }

  const manifest: ShareManifest = {
    format: SHARE_FORMAT,
    version: SHARE_FORMAT_VERSION,
    coord_version: options.coordVersion,
    created_at: options.now.toISOString(),
    log_name: basename(options.logDir),
    question: manifestTurns[0]?.question ?? "",
    turns: manifestTurns,
    files: collector.files.map(({ name, path, bytes, kind }) => ({ name, path, bytes, kind })),
    skipped: collector.skipped,
    redacted: true,
  };
  const manifestContent = options.redact(`${JSON.stringify(manifest, null, 2)}\n`);
  return {
    logDir: options.logDir,
    turns,
    files: collector.files,
    skipped: collector.skipped,
    manifest,
    manifestContent,
    description: options.redact(shareDescription(manifest.question)),
    totalBytes:
      collector.files.reduce((sum, file) => sum + file.bytes, 0) +
      Buffer.byteLength(manifestContent),
  };
}

function chooseTurns(spec: TurnSpec, available: number[], logDir: string): number[] {
  if (spec.kind === "all") return available;
  if (spec.kind === "latest") return [available.at(-1)!];
  const chosen = available.filter((turn) => turn >= spec.from && turn <= spec.to);
  const missing = [];
  for (let turn = spec.from; turn <= spec.to; turn++)
    if (!available.includes(turn)) missing.push(turn);
  if (missing.length > 0) {
    throw new ConfigError(
      `${logDir} has no turn ${missing.join(", ")} (turns: ${available.join(", ")}): pick --turns among them`,
      { file: logDir },
    );
  }
  return chosen;
}

async function readAttempt(dir: string): Promise<AttemptReading> {
  try {
    return { state: (await readRunLog(dir)).state };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The run files of an attempt, in upload order. */
const RUN_FILES: Array<[keyof AttemptFiles, string]> = [
  ["events", LOG_FILES.events],
  ["status", LOG_FILES.status],
  ["metrics", LOG_FILES.metrics],
  ["final_answer", LOG_FILES.finalAnswer],
  ["execution_metadata", LOG_FILES.metadata],
];

/** Adds files under the limits, remembering what it skipped and why. */
function createCollector(options: CollectShareOptions) {
  const files: ShareFile[] = [];
  const skipped: SkippedFileEntry[] = [];
  let workspaceBytes = 0;

  /** Adds the file at `path` (relative, `/`-separated); returns its gist name, or null. */
  const add = async (
    path: string,
    kind: ShareFileKind,
    forcedSkip?: SkipReason,
  ): Promise<string | null> => {
    const absolute = join(options.logDir, ...path.split("/"));
    const info = await lstat(absolute);
    const skip = (reason: SkipReason) => {
      skipped.push({ path, bytes: info.size, reason });
      return null;
    };
    if (forcedSkip !== undefined) return skip(forcedSkip);
    if (info.isSymbolicLink()) return skip("symlink");
    if (!info.isFile()) return null;
    if (info.size === 0) return skip("empty");
    const workspace = kind === "workspace";
    const limit = workspace ? SHARE_LIMITS.maxWorkspaceFileBytes : SHARE_LIMITS.maxRunFileBytes;
    if (info.size > limit) return skip("too_large");
    // Without following a link or blocking on a file swapped in since lstat, at most the limit.
    const read = await readResolvedFile(absolute, { maxBytes: limit }).catch(() => undefined);
    if (read === undefined) return null;
    if (read.truncated) return skip("too_large");
    const text = decodeText(read.bytes);
    if (text === undefined) return skip("binary");
    const content = options.redact(text);
    const bytes = Buffer.byteLength(content);
    if (workspace && workspaceBytes + bytes > SHARE_LIMITS.maxWorkspaceTotalBytes)
      return skip("total_limit");
    if (files.length + 1 >= SHARE_LIMITS.maxFiles) return skip("file_limit"); // + the manifest
    if (workspace) workspaceBytes += bytes;
    const name = gistFileName(path);
    files.push({ name, path, bytes, kind, content });
    return name;
  };

  /** Adds an attempt directory: its run files, other files, then its workspace files. */
  const addAttempt = async (attemptPath: string): Promise<AttemptFiles> => {
    const dir = join(options.logDir, ...attemptPath.split("/"));
    const entries = await sortedEntries(dir);
    const names = new Set(entries.map((entry) => entry.name));
    const attemptFiles: AttemptFiles = {
      events: null,
      status: null,
      metrics: null,
      final_answer: null,
      execution_metadata: null,
    };
    for (const [key, file] of RUN_FILES) {
      if (names.has(file)) attemptFiles[key] = await add(`${attemptPath}/${file}`, key);
    }
    const runFileNames = new Set(RUN_FILES.map(([, file]) => file));
    for (const entry of entries) {
      if (!entry.isDirectory() && !runFileNames.has(entry.name))
        await add(`${attemptPath}/${entry.name}`, "other");
    }
    for (const entry of entries) {
      if (entry.isDirectory()) await addTree(`${attemptPath}/${entry.name}`);
    }
    return attemptFiles;
  };

  /** Adds a workspace directory, depth first, names sorted. */
  const addTree = async (path: string): Promise<void> => {
    for (const entry of await sortedEntries(join(options.logDir, ...path.split("/")))) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory()) await addTree(child);
      else await add(child, "workspace", options.workspace ? undefined : "not_selected");
    }
  };

  return { files, skipped, add, addAttempt };
}

async function sortedEntries(dir: string) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    },
  );
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The file as UTF-8 text, or undefined when it is binary (a NUL byte, or not UTF-8). */
function decodeText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
