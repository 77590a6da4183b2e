/**
 * Spawns the built CLI (`dist/bin/coord.js`, the bundle `npm run build` makes, which `npm test` runs first)
 * in a temp working directory with a temp HOME, as a user would run it.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = join(REPO_ROOT, "dist", "bin", "coord.js");
/** The tiny GGUF model shipped in the repository (models/README.md), which tests run for real. */
export const TINY_MODEL = join(REPO_ROOT, "models", "stories260K.gguf");

/** What a finished CLI process left behind. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A temp working directory and home for one test. */
export async function makeSandbox(): Promise<{ cwd: string; home: string }> {
  const root = await mkdtemp(join(tmpdir(), "coord-test-"));
  const { mkdir } = await import("node:fs/promises");
  const cwd = join(root, "work");
  const home = join(root, "home");
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  return { cwd, home };
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  cwd: string;
  home: string;
  env?: Record<string, string>;
  /** Called once with the child, e.g. to send SIGINT after some output. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Kill the process after this many ms (a test safety net). Default 60000. */
  timeoutMs?: number;
}

/** Runs `node dist/bin/coord.js ...args` and collects its output and exit code. */
export function runCli(args: readonly string[], options: RunCliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: options.home,
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** The single attempt directory of the single run under `<cwd>/agent_outputs`. */
export async function onlyAttemptDir(cwd: string): Promise<string> {
  const root = join(cwd, "agent_outputs");
  const logs = await readdir(root);
  if (logs.length !== 1)
    throw new Error(`expected one log directory in ${root}, found: ${logs.join(", ")}`);
  return join(root, logs[0]!, "turn_1", "attempt_1");
}

/** Reads a log file of an attempt directory as text. */
export function readLog(attemptDir: string, file: string): Promise<string> {
  return readFile(join(attemptDir, file), "utf8");
}
