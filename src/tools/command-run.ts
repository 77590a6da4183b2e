/**
 * Runs one `execute_command` process (docs/tools.md "Commands"): in its own process group, killed
 * with the group on timeout or abort, stdout and stderr each capped at
 * {@link MAX_COMMAND_OUTPUT} characters. Under bubblewrap (`--info-fd 3`), a watchdog counts the
 * processes of the sandbox's PID namespace every {@link WATCH_INTERVAL_MS} ms and kills the whole
 * sandbox when they exceed the process limit (a fork bomb): Linux does not enforce
 * `RLIMIT_NPROC` for root, so the count is the limit that holds for every user. Where a pids
 * cgroup can be made (`./pids-cgroup.ts`), the kernel also stops forks at twice the limit, so a
 * bomb cannot fill the machine's process table before the watchdog counts it.
 */
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { ToolError } from "./path-policy.js";
import { createPidsCgroup, inCgroup } from "./pids-cgroup.js";

/** Characters kept of each of stdout and stderr. */
export const MAX_COMMAND_OUTPUT = 20_000;
/** How often the process watchdog counts a sandbox's processes (ms). */
export const WATCH_INTERVAL_MS = 50;

/** How a command ended. */
export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Killed because it had more than `maxProcesses` processes at once. */
  tooManyProcesses: boolean;
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  /** Program and arguments (`bwrap …` or `/bin/sh -c …`). */
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Time limit (s). */
  seconds: number;
  signal: AbortSignal;
  /** With bwrap's `--info-fd 3`: the most processes the sandbox may hold at once. */
  maxProcesses?: number;
}

/**
 * Runs the command to its end (or its kill).
 * @throws the abort reason when `signal` aborts; ToolError when the program cannot start.
 */
export function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    const watched = options.maxProcesses !== undefined;
    // The kernel's limit where a pids cgroup can be made; the watchdog's everywhere.
    const cgroup = watched ? createPidsCgroup(2 * options.maxProcesses!) : undefined;
    const argv = cgroup ? inCgroup(cgroup.dir, options.argv) : options.argv;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      stdio: watched ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const stdout = capture();
    const stderr = capture();
    child.stdout!.on("data", stdout.add);
    child.stderr!.on("data", stderr.add);
    let timedOut = false;
    let tooManyProcesses = false;
    let ended = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.seconds * 1000);
    const stopWatch = watched
      ? watchProcesses(child.stdio[3] as NodeJS.ReadableStream, options.maxProcesses!, () => {
          if (ended) return;
          tooManyProcesses = true;
          killGroup();
        })
      : () => {};
    const onAbort = () => killGroup();
    options.signal.addEventListener("abort", onAbort, { once: true });
    const finish = () => {
      ended = true;
      clearTimeout(timer);
      stopWatch();
      cgroup?.release();
      options.signal.removeEventListener("abort", onAbort);
    };
    child.on("error", (error) => {
      finish();
      reject(new ToolError(`could not start the command: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      finish();
      if (options.signal.aborted) return reject(options.signal.reason as Error);
      resolve({
        code,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        tooManyProcesses,
      });
    });
  });
}

/**
 * Reads bwrap's JSON info (`child-pid`) from `info`, then counts the entries of the sandbox's own
 * `/proc` (through `/proc/<child-pid>/root/proc`: only its PID namespace) every
 * {@link WATCH_INTERVAL_MS} ms; calls `onExceeded` once when the count passes `max`.
 * @returns a function that stops the watchdog.
 */
function watchProcesses(
  info: NodeJS.ReadableStream,
  max: number,
  onExceeded: () => void,
): () => void {
  let text = "";
  let interval: NodeJS.Timeout | undefined;
  let stopped = false;
  let busy = false;
  const count = async (procRoot: string) => {
    if (busy || stopped) return;
    busy = true;
    try {
      const names = await readdir(procRoot);
      const processes = names.filter((name) => /^\d+$/.test(name)).length;
      if (processes > max && !stopped) {
        stopped = true;
        onExceeded();
      }
    } catch {
      // the sandbox is gone, or not yet there
    } finally {
      busy = false;
    }
  };
  info.setEncoding("utf8");
  info.on("data", (chunk: string) => {
    text += chunk;
    if (interval !== undefined || stopped) return;
    const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
    if (pid === undefined) return;
    const procRoot = `/proc/${pid}/root/proc`;
    interval = setInterval(() => void count(procRoot), WATCH_INTERVAL_MS);
    void count(procRoot);
  });
  info.on("error", () => {});
  return () => {
    stopped = true;
    if (interval !== undefined) clearInterval(interval);
  };
}

/** Keeps the first {@link MAX_COMMAND_OUTPUT} characters of a stream and counts the rest. */
function capture(): { add: (chunk: Buffer) => void; text: () => string } {
  let kept = "";
  let dropped = 0;
  return {
    add(chunk) {
      const text = chunk.toString("utf8");
      const room = MAX_COMMAND_OUTPUT - kept.length;
      if (room >= text.length) kept += text;
      else {
        kept += text.slice(0, Math.max(0, room));
        dropped += text.length - Math.max(0, room);
      }
    },
    text: () => (dropped > 0 ? `${kept}\n… (${dropped} more characters cut)` : kept),
  };
}
