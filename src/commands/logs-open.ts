/**
 * `coord logs open` (spec section 4.2): opens the log directory in the system file manager —
 * `open` on macOS, `explorer` on Windows, `xdg-open` elsewhere. Without one on the PATH it
 * prints the path and says so (exit 0: the path is what the user needs). When the opener fails
 * (it cannot start, or exits non-zero within {@link OPENER_WAIT_MS}) it prints the path, says why,
 * and the command exits 2 (`opened: false` and the `reason` under `--json`).
 */
import { spawn } from "node:child_process";
import { access, constants, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { ConfigError } from "../errors.js";
import { logDirPath, LOGS_JSON_VERSION } from "../logs/index.js";
import { type Clock, systemClock } from "../clock.js";
import type { LogsIO } from "./io.js";

/**
 * `coord logs open --json`. `opener` is the program started (also when it failed), or null when
 * none was found; `reason` is present when the opener failed: why (e.g. "xdg-open exited with
 * code 3").
 */
export interface LogsOpenJson {
  version: number;
  log_dir: string;
  opened: boolean;
  opener: string | null;
  reason?: string;
}

/**
 * How long to wait for the opener to exit, ms: `xdg-open` and `open` hand the folder to the file
 * manager and exit at once, so a failure shows within this; one still running after it (it runs
 * the file manager itself) counts as opened.
 */
export const OPENER_WAIT_MS = 5_000;

/** The file-manager program for a platform. */
export function fileManagerCommand(platform: NodeJS.Platform): string {
  if (platform === "darwin") return "open";
  if (platform === "win32") return "explorer";
  return "xdg-open";
}

/**
 * The first executable `name` on the PATH (`PATHEXT` extensions on Windows), or null.
 * @param env the environment holding `PATH`.
 */
export async function findOnPath(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): Promise<string | null> {
  const dirs = (env.PATH ?? env.Path ?? "").split(delimiter).filter((dir) => dir !== "");
  const extensions =
    platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  for (const dir of dirs) {
    for (const extension of extensions) {
      const candidate = join(dir, name + extension);
      try {
        await access(candidate, constants.X_OK);
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/**
 * Opens the log directory (`--log-dir`, else the most recent under `root`) and reports it.
 * @param options.clock waits for the opener's exit (default the system clock).
 * @returns the report; `opened: false` with `reason` when the opener failed (exit 2 then).
 * @throws ConfigError when there is no log directory, or `--log-dir` does not exist.
 */
export async function openLogDir(
  options: { root: string; logDir?: string | undefined; json: boolean; clock?: Clock },
  io: LogsIO,
): Promise<LogsOpenJson> {
  const path = await logDirPath({ root: options.root, logDir: options.logDir, cwd: io.cwd });
  if (!(await stat(path).catch(() => null))?.isDirectory()) {
    throw new ConfigError(`log directory ${path} does not exist`, { file: path });
  }
  const name = fileManagerCommand(io.platform);
  const opener = await findOnPath(name, io.env, io.platform);
  const failure =
    opener === null ? undefined : await launch(opener, name, path, io.env, options.clock);
  const opened = opener !== null && failure === null;
  const result: LogsOpenJson = {
    version: LOGS_JSON_VERSION,
    log_dir: path,
    opened,
    opener: opener === null ? null : name,
    ...(failure ? { reason: failure } : {}),
  };
  if (options.json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (opened) {
    io.stdout.write(`Opened ${path} with ${name}\n`);
  } else if (failure) {
    io.stdout.write(`${path}\n`);
    io.stderr.write(`coord: could not open it: ${failure}; the log directory is printed above\n`);
  } else {
    io.stdout.write(`${path}\n`);
    io.stderr.write(
      `coord: no file manager to open it with (${name} is not on the PATH); the log directory is printed above\n`,
    );
  }
  return result;
}

/**
 * Starts the opener detached and waits up to {@link OPENER_WAIT_MS} for it to exit.
 * @returns null when it exited 0 or still runs after the wait; else why it failed.
 */
function launch(
  opener: string,
  name: string,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  clock: Clock = systemClock,
): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(opener, [path], {
      detached: true,
      stdio: "ignore",
      env: { ...env },
    });
    const waiting = new AbortController();
    const settle = (failure: string | null) => {
      waiting.abort();
      child.unref();
      resolve(failure);
    };
    child.once("error", (error) => settle(`${name} could not start: ${error.message}`));
    child.once("exit", (code, signal) =>
      settle(
        code === 0
          ? null
          : signal !== null
            ? `${name} was stopped by ${signal}`
            : `${name} exited with code ${code}`,
      ),
    );
    child.once("spawn", () => {
      clock.sleep(OPENER_WAIT_MS, waiting.signal).then(
        () => settle(null),
        () => undefined,
      );
    });
  });
}
