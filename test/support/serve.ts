/**
 * Runs `coord serve` from the built CLI (`dist/bin/coord.js`) as a child process, for end-to-end
 * tests: waits for its "listening on" line, exposes its stderr as it grows, and stops it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { CLI } from "./cli.js";

/** A running `coord serve` child. */
export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT` (the port the server printed). */
  url: string;
  port: number;
  /** Everything written to stderr so far. */
  stderr(): string;
  /**
   * Resolves once stderr matches `pattern`; rejects, with the stderr so far, if the process
   * exits first or `timeoutMs` (default 30 s, a safety net, not an assertion) passes.
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process exits. */
  exited: Promise<number | null>;
}

/**
 * Spawns `node dist/bin/coord.js serve ...args` and waits until it listens.
 * @throws Error with its stderr when it exits before listening.
 */
export async function startServe(
  args: readonly string[],
  options: { cwd: string; home: string; env?: Record<string, string> },
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, "serve", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: options.home, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", () => undefined);
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const wake of [...waiters]) wake();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  let exitedNow = false;
  void exited.then(() => {
    exitedNow = true;
    for (const wake of [...waiters]) wake();
  });

  const waitFor = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`coord serve did not print ${String(pattern)}:\n${stderr}`));
      }, timeoutMs);
      const check = () => {
        const match = stderr.match(pattern);
        if (match) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(match);
        } else if (exitedNow) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`coord serve exited before printing ${String(pattern)}:\n${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });

  const match = await waitFor(/listening on http:\/\/[^\s:]+:(\d+)/);
  const port = Number(match[1]);
  return { child, url: `http://127.0.0.1:${port}`, port, stderr: () => stderr, waitFor, exited };
}
