/**
 * `coord export [LOG_NAME|PATH] [--turns …] [--no-workspace] [--dry-run] [--yes] [--json]`
 * (spec §4.2; docs/sharing.md): shares a run log as a secret gist through the GitHub CLI and
 * prints `Share URL: {viewer_url}/?gist=<gist_id>`. The files are collected and redacted by
 * src/logs/share-bundle.ts; gh is driven by ./gh.ts. Never runs a team or calls a model.
 *
 * Output: progress lines on stderr (the collected path, the number of files and total bytes,
 * each skipped file), then the `Share URL:` line on stdout; with `--json` one JSON document on
 * stdout and no progress lines.
 *
 * Exit codes: 0 shared (or listed, with --dry-run); 1 no log, bad flags, gh missing or not
 * logged in, not confirmed (ConfigError); 2 the upload failed (ExecutionError).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { loadEnvFiles, readSharingSettings, shareUrl } from "../config/index.js";
import { ConfigError } from "../errors.js";
import {
  collectShareBundle,
  logDirPath,
  MANIFEST_FILE,
  type ShareBundle,
  type TurnSpec,
} from "../logs/index.js";
import { defaultLogRoot } from "../runner/index.js";
import { collectSecretValues, redactText, resolveAttemptDir } from "../store/index.js";
import { confirmOrRefuse, formatBytes } from "./confirm.js";
import { createSecretGist, type GhRunner, ghRunner, requireGhLogin } from "./gh.js";
import type { CommandIO } from "./io.js";

/** `coord export`'s flags after parsing. */
export interface ExportFlags {
  /** `LOG_NAME` (a `log_…` name under the log root) or a path. */
  target?: string | undefined;
  /** Default all. */
  turns?: TurnSpec | undefined;
  /** False with `--no-workspace`. */
  workspace: boolean;
  dryRun: boolean;
  yes: boolean;
  json: boolean;
}

/** The outside world of `coord export` and `coord shares`. */
export interface ShareIO extends CommandIO {
  stdin: NodeJS.ReadStream;
  /** Runs gh; default the real one on PATH. */
  gh?: GhRunner;
  /** For the manifest's `created_at`; default now. */
  now?: () => Date;
}

/** `coord export --json`. */
export interface ExportJson {
  version: 1;
  dry_run: boolean;
  log_dir: string;
  turns: number[];
  files: Array<{ name: string; path: string; bytes: number; kind: string }>;
  skipped: ShareBundle["skipped"];
  total_bytes: number;
  gist_id: string | null;
  gist_url: string | null;
  share_url: string | null;
}

/** Most skipped files named one by one in the progress lines. */
const SKIPPED_SHOWN = 10;

/**
 * Exports a run log.
 * @returns 0.
 * @throws ConfigError, ExecutionError (see the module doc).
 */
export async function exportCommand(flags: ExportFlags, io: ShareIO): Promise<number> {
  const root = defaultLogRoot(io.env, io.cwd);
  const { logDir, turns } = await resolveTarget(flags, root, io.cwd);
  const env = await loadEnvFiles({ home: io.home, env: io.env });
  const sharing = await readSharingSettings({ cwd: io.cwd, home: io.home, env });
  const known = collectSecretValues({ env, values: [sharing.config] });
  const progress = (line: string) => {
    if (!flags.json) io.stderr.write(`${line}\n`);
  };
  const bundle = await collectShareBundle({
    logDir,
    turns,
    workspace: flags.workspace,
    redact: (text) => redactText(text, known),
    coordVersion: io.version,
    now: (io.now ?? (() => new Date()))(),
  });
  const fileCount = bundle.files.length + 1;
  const shown = relative(io.cwd, logDir);
  progress(
    `Collected ${shown === "" || shown.startsWith("..") ? logDir : shown} (${bundle.turns.length === 1 ? "turn" : "turns"} ${bundle.turns.join(", ")}): ` +
      `${fileCount} files, ${formatBytes(bundle.totalBytes)}, secrets redacted`,
  );
  bundle.skipped.slice(0, SKIPPED_SHOWN).forEach((file) => {
    progress(
      `Skipped ${file.path}: ${SKIP_TEXT[file.reason]}, ${file.bytes.toLocaleString("en-US")} bytes`,
    );
  });
  if (bundle.skipped.length > SKIPPED_SHOWN) {
    progress(
      `Skipped ${bundle.skipped.length - SKIPPED_SHOWN} more files (listed in ${MANIFEST_FILE})`,
    );
  }

  if (flags.dryRun) {
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(exportJson(bundle, null, sharing.viewerUrl), null, 2)}\n`);
    } else {
      io.stdout.write("Would upload (nothing was uploaded: --dry-run):\n");
      for (const file of [
        {
          name: MANIFEST_FILE,
          path: "(manifest)",
          bytes: Buffer.byteLength(bundle.manifestContent),
        },
        ...bundle.files,
      ]) {
        io.stdout.write(`  ${file.name}  ${formatBytes(file.bytes)}  ${file.path}\n`);
      }
    }
    return 0;
  }

  const gh = io.gh ?? ghRunner(io.env);
  await requireGhLogin(gh);
  await confirmOrRefuse(
    {
      message: `Upload ${fileCount} files, ${formatBytes(bundle.totalBytes)}, as a secret gist? Anyone with the link can read them.`,
      yes: flags.yes,
      refusal: "coord export uploads the run to a GitHub gist: add --yes to confirm",
    },
    io,
  );
  progress("Uploading a secret gist with gh…");
  const gist = await upload(gh, bundle);
  const url = shareUrl(sharing.viewerUrl, gist.id);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(exportJson(bundle, gist, sharing.viewerUrl), null, 2)}\n`);
  } else {
    io.stdout.write(`Share URL: ${url}\n`);
  }
  return 0;
}

const SKIP_TEXT: Record<ShareBundle["skipped"][number]["reason"], string> = {
  debug_log: "the debug log is not shared",
  binary: "binary file",
  empty: "empty file",
  symlink: "symbolic link",
  too_large: "too large",
  total_limit: "workspace size limit reached",
  file_limit: "file count limit reached",
  not_selected: "workspace file (--no-workspace)",
};

/** Writes the files under their gist names in a temp directory and runs gh gist create. */
async function upload(gh: GhRunner, bundle: ShareBundle): Promise<{ id: string; url: string }> {
  const dir = await mkdtemp(join(tmpdir(), "coord-export-"));
  try {
    const paths: string[] = [];
    for (const file of [
      { name: MANIFEST_FILE, content: bundle.manifestContent },
      ...bundle.files,
    ]) {
      const path = join(dir, file.name);
      await writeFile(path, file.content, { mode: 0o600 });
      paths.push(path);
    }
    return await createSecretGist(gh, paths, bundle.description);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function exportJson(
  bundle: ShareBundle,
  gist: { id: string; url: string } | null,
  viewerUrl: string,
): ExportJson {
  return {
    version: 1,
    dry_run: gist === null,
    log_dir: bundle.logDir,
    turns: bundle.turns,
    files: bundle.files.map(({ name, path, bytes, kind }) => ({ name, path, bytes, kind })),
    skipped: bundle.skipped,
    total_bytes: bundle.totalBytes,
    gist_id: gist?.id ?? null,
    gist_url: gist?.url ?? null,
    share_url: gist === null ? null : shareUrl(viewerUrl, gist.id),
  };
}

/**
 * The log directory to share: the most recent under the root; a `log_…` name under the root; or
 * a path to a log, `turn_<n>` or `attempt_<m>` directory (a turn or attempt narrows the turns to
 * its turn unless `--turns` says otherwise).
 * @throws ConfigError when there is no such log.
 */
async function resolveTarget(
  flags: ExportFlags,
  root: string,
  cwd: string,
): Promise<{ logDir: string; turns: TurnSpec }> {
  const turns = flags.turns ?? { kind: "all" };
  if (flags.target === undefined) {
    return {
      logDir: await logDirPath({ root, cwd, pathHint: "name a log (coord export log_…)" }),
      turns,
    };
  }
  const underRoot = join(root, flags.target);
  const candidates = /^log_[^/\\]+$/.test(flags.target)
    ? [underRoot, resolve(cwd, flags.target)]
    : [resolve(cwd, flags.target)];
  for (const candidate of candidates) {
    try {
      const found = await resolveAttemptDir(candidate);
      const narrowed = /^(turn|attempt)_\d+$/.test(basename(candidate));
      return {
        logDir: found.logDir,
        turns:
          narrowed && flags.turns === undefined
            ? { kind: "range", from: found.turn, to: found.turn }
            : turns,
      };
    } catch (error) {
      if (candidate === candidates.at(-1)) throw error;
    }
  }
  throw new ConfigError(`no run log named ${flags.target} in ${root}`);
}
