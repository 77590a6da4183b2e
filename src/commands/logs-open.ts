/**
 * `coord logs open` (spec section 4.2): opens the log directory in the system file manager —
 * `open` on macOS, `explorer` on Windows, `xdg-open` elsewhere. Without one on the PATH it
 * prints the path and says so (exit 0: the path is what the user needs).
 */
import { spawn } from "node:child_process";
import { access, constants, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { ConfigError } from "../errors.js";
import { logDirPath, LOGS_JSON_VERSION } from "../logs/index.js";
import type { LogsIO } from "./io.js";

/** `coord logs open --json`. `opener` is the program started, or null when none was found. */
export interface LogsOpenJson {
  version: number;
  log_dir: string;
  opened: boolean;
  opener: string | null;
}

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
 * @throws ConfigError when there is no log directory, or `--log-dir` does not exist.
 */
export async function openLogDir(
  options: { root: string; logDir?: string | undefined; json: boolean },
  io: LogsIO,
): Promise<LogsOpenJson> {
  const path = await logDirPath({ root: options.root, logDir: options.logDir, cwd: io.cwd });
  if (!(await stat(path).catch(() => null))?.isDirectory()) {
    throw new ConfigError(`log directory ${path} does not exist`, { file: path });
  }
  const name = fileManagerCommand(io.platform);
  const opener = await findOnPath(name, io.env, io.platform);
  const opened = opener !== null && (await launch(opener, path, io.env));
  const result: LogsOpenJson = {
    version: LOGS_JSON_VERSION,
    log_dir: path,
    opened,
    opener: opened ? name : null,
  };
  if (options.json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (opened) {
    io.stdout.write(`Opened ${path} with ${name}\n`);
  } else {
    io.stdout.write(`${path}\n`);
    io.stderr.write(
      `coord: no file manager to open it with (${name} is not on the PATH); the log directory is printed above\n`,
    );
  }
  return result;
}

/** Starts the opener detached; true once it has started, false when it cannot be. */
function launch(
  opener: string,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(opener, [path], {
      detached: true,
      stdio: "ignore",
      env: { ...env },
    });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
