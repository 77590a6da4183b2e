/**
 * Load generation for the `coord serve` figures of `bench/run.ts`: starts a server process,
 * sends POST requests at a fixed concurrency (each worker sends its next request as soon as the
 * previous one answered; one keep-alive connection per worker, node:http), and reports requests per
 * second and latency percentiles. Times are wall-clock milliseconds from `performance.now()`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ROOT } from "./measure.js";

/** A server process under test. */
export interface Target {
  url: string;
  child: ChildProcess;
  /** What the process wrote on stderr up to its `listening on` line. */
  banner: string;
  /** Returns what the process wrote on stderr since the last call (access log lines). */
  takeLog(): string;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** One load level's figures. */
export interface LoadResult {
  concurrency: number;
  requests: number;
  /** Completed requests per second of wall time. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers or failed requests. */
  errors: number;
  /** Every latency (ms), sorted, and the wall time (ms): for {@link combine}. */
  latencies: number[];
  wallMs: number;
}

/** Pools several runs at one concurrency (interleaved with another target's, against noise). */
export function combine(results: readonly LoadResult[]): LoadResult {
  const latencies = results
    .flatMap((result) => result.latencies)
    .sort((left, right) => left - right);
  const wallMs = results.reduce((sum, result) => sum + result.wallMs, 0);
  return {
    concurrency: results[0]?.concurrency ?? 0,
    requests: latencies.length,
    rps: (latencies.length / wallMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    latencies,
    wallMs,
  };
}

/**
 * Spawns `node <args>` in the package root (with `options.env`, default this process's) and
 * waits for `listening on http://…:PORT` on its stderr.
 * @throws Error with the process's stderr when it exits first.
 */
export function startTarget(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<Target> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    ...(options.env ? { env: options.env } : {}),
  });
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on http:\/\/[^\s:]+:(\d+)/.exec(stderr);
      if (match) {
        child.stderr.removeAllListeners("data");
        let log = "";
        child.stderr.on("data", (chunk: string) => (log += chunk));
        const exited = new Promise<void>((done) => child.once("exit", () => done()));
        resolve({
          url: `http://127.0.0.1:${match[1]}`,
          child,
          banner: stderr,
          takeLog: () => {
            const taken = log;
            log = "";
            return taken;
          },
          stop: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        });
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`node ${args.join(" ")} exited ${code} before listening:\n${stderr}`)),
    );
  });
}

/** The value at quantile `q` (0–1) of a sorted list, nearest rank. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/**
 * Sends `requests` POST requests to `url` with `concurrency` in flight, the bodies taken in turn.
 * Reads every response body (a run is only done when its answer arrived).
 */
export async function load(options: {
  url: string;
  bodies: readonly string[];
  concurrency: number;
  requests: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const worker = async () => {
    while (next < options.requests) {
      const body = options.bodies[next++ % options.bodies.length]!;
      const started = performance.now();
      const status = await post(options.url, body, agent).catch(() => 0);
      if (status < 200 || status > 299) errors++;
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const wallMs = performance.now() - started;
  agent.destroy();
  latencies.sort((left, right) => left - right);
  return {
    concurrency: options.concurrency,
    requests: latencies.length,
    rps: (latencies.length / wallMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
    latencies,
    wallMs,
  };
}

/**
 * Server-side handling times (ms) from `coord serve` access-log lines (`… POST … 200 12 ms`):
 * from the request reaching the app to its response, without queueing in front of it.
 */
export function accessLogTimes(log: string): number[] {
  return [...log.matchAll(/ POST \S+ \d{3} (\d+) ms$/gm)]
    .map((match) => Number(match[1]))
    .sort((left, right) => left - right);
}

/** One POST over a keep-alive agent; resolves with the status once the whole body arrived. */
function post(url: string, body: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.on("data", () => undefined);
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The GSM8K test file the bench takes its questions from (beside the repository). */
export const GSM8K = join(ROOT, "..", "shared", "data", "gsm8k", "test.jsonl");

/**
 * Chat-completions bodies, one per GSM8K question (the first `limit`); synthetic arithmetic
 * questions when the file is missing (the figure's note says which).
 */
export function questionBodies(limit: number): { bodies: string[]; source: string } {
  const questions: string[] = [];
  if (existsSync(GSM8K)) {
    for (const line of readFileSync(GSM8K, "utf8").split("\n")) {
      if (questions.length >= limit) break;
      if (line.trim() === "") continue;
      const { question } = JSON.parse(line) as { question?: unknown };
      if (typeof question === "string") questions.push(question);
    }
  }
  const source =
    questions.length > 0 ? "GSM8K test questions" : "synthetic questions (GSM8K file not found)";
  if (questions.length === 0) {
    for (let index = 0; index < limit; index++) questions.push(`What is ${index} + ${index}?`);
  }
  const bodies = questions.map((content) =>
    JSON.stringify({ model: "coord", messages: [{ role: "user", content }] }),
  );
  return { bodies, source };
}
