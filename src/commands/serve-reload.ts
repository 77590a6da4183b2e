/**
 * `coord serve --reload` (spec section 4.2 "Auto-reload for development"): runs the server as a
 * child process (the same command line without `--reload`) and restarts it when coord's code
 * (the folder the running CLI was loaded from: `dist/` for the bundled CLI, which `npm run build` rewrites)
 * or the config file changes. Changes are debounced; SIGINT/SIGTERM are passed to the child
 * (which shuts down gracefully) and the supervisor exits with it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServeIO, ServeSettings } from "./io.js";

/** Quiet time after the last change before restarting, ms. */
const DEBOUNCE_MS = 300;

/**
 * Supervises the server child until SIGINT/SIGTERM.
 * @returns the exit code: the child's last exit code after a signal (0 for a graceful stop).
 */
export async function superviseWithReload(options: {
  settings: ServeSettings;
  io: ServeIO;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<number> {
  const { io, settings } = options;
  const cli = process.argv[1] ?? fileURLToPath(new URL("../cli.js", import.meta.url));
  const args = [...process.execArgv, cli, ...io.argv.filter((arg) => arg !== "--reload")];
  const codeDir = fileURLToPath(new URL("..", import.meta.url));
  const configFile = configPath(settings.config, io.cwd);
  const say = (line: string) => io.stderr.write(`coord serve --reload: ${line}\n`);

  let child: ChildProcess | undefined;
  let stopping = false;
  const start = () => {
    // Its own process group: Ctrl+C reaches the supervisor only, which passes it on once.
    child = spawn(process.execPath, args, {
      cwd: io.cwd,
      stdio: "inherit",
      env: process.env,
      detached: true,
    });
    const current = child;
    current.once("exit", (code, signal) => {
      if (current === child) child = undefined;
      if (!stopping && !restarting)
        say(`the server exited (${code ?? signal}); waiting for a change to restart it`);
    });
  };
  let restarting = false;
  let restarts = Promise.resolve();
  // One restart at a time: a change during a restart queues another.
  const restart = (why: string) => {
    restarts = restarts.then(async () => {
      if (stopping) return;
      say(`${why} changed: restarting`);
      restarting = true;
      await stopChild(child, "SIGTERM");
      restarting = false;
      if (!stopping) start();
    });
  };

  // Changes are collected until the tree has been quiet for DEBOUNCE_MS, then one restart.
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<string>();
  const shownConfig = configFile === undefined ? undefined : relative(io.cwd, configFile);
  const changed = (path: string) => {
    pending.add(relative(io.cwd, path) || path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      // The config file first: it is the change a user is most likely waiting for.
      const names = [...pending].sort(
        (left, right) => Number(right === shownConfig) - Number(left === shownConfig),
      );
      pending.clear();
      const shown =
        names.slice(0, 3).join(", ") + (names.length > 3 ? ` and ${names.length - 3} more` : "");
      restart(shown);
    }, DEBOUNCE_MS);
  };
  const watchers: FSWatcher[] = [
    watch(codeDir, { recursive: true }, (_event, file) =>
      changed(file ? resolve(codeDir, file) : codeDir),
    ),
  ];
  if (configFile !== undefined && existsSync(dirname(configFile))) {
    // Watch the folder: editors often replace the file, which ends a watch on the file itself.
    watchers.push(
      watch(dirname(configFile), (_event, file) => {
        if (file === basename(configFile)) changed(configFile);
      }),
    );
  }
  process.once("exit", () => child?.kill("SIGKILL"));
  say(`watching ${codeDir}${configFile ? ` and ${configFile}` : ""}`);
  start();

  return new Promise<number>((resolveExit) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      const last = child;
      void stopChild(last, signal).then((code) => {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        resolveExit(code);
      });
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

/** The config file to watch (`@examples/…` are part of the package: not watched). */
function configPath(config: string | undefined, cwd: string): string | undefined {
  if (config === undefined || config.startsWith("@examples/")) return undefined;
  return resolve(cwd, config);
}

/** Signals the child and resolves with its exit code (0 when it was not running). */
function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<number> {
  if (!child || child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child?.exitCode ?? 0);
  return new Promise((resolveStop) => {
    child.once("exit", (code) => resolveStop(code ?? 0));
    child.kill(signal);
  });
}
