/**
 * Whole-process runs of the built CLI for `npm run bench`: `node dist/bin/coord.js
 * --config team.yaml "q"` with a team of `chatcompletion` agents against the fake OpenAI server
 * of test/support, started in this process on 127.0.0.1. Every model call is answered after
 * `delayMs` (the agents answer, vote for agent1, agent1 presents). Times are wall-clock
 * milliseconds of this process's `performance.now()`: the spawn, the first model request
 * reaching the server, the last response leaving it, the child's exit. CPU and peak RSS come
 * from the child itself (`probe.ts`).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import {
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeRequest,
} from "../test/support/fake-openai-server.js";
import { agreeingModel } from "./agreeing-model.js";
import { ROOT } from "./measure.js";
import type { ProbeReport } from "./probe.js";

const PROBE = fileURLToPath(new URL("./probe.js", import.meta.url));
/** The CLI under test; `COORD_BENCH_CLI` names another build (e.g. main's, for before/after). */
export const CLI = process.env.COORD_BENCH_CLI ?? join(ROOT, "dist", "bin", "coord.js");

/** One whole-process run's figures. */
export interface ProcessRun {
  /** Spawn → exit. */
  wallMs: number;
  /** Spawn → the first model request at the server. */
  firstRequestMs: number;
  /** The last response written by the server → the child's exit. */
  exitTailMs: number;
  /** The child's CPU from the end of its last response to its exit (the exit tail's own work). */
  exitTailCpuMs: number;
  /** Model calls the server answered. */
  calls: number;
  /** The longest chain of calls each waiting for another's response (see `countWaves`). */
  waves: number;
  /** Prompt tokens of all calls (the fake server's estimate: message characters / 4). */
  promptTokens: number;
  cpuMs: number;
  /** CPU after the first request (the run itself, start-up excluded). */
  cpuAfterStartMs: number;
  /** CPU up to the first request (start-up). */
  cpuAtFirstRequestMs: number;
  peakRssMb: number;
}

/** Options of {@link runProcess}. */
export interface RunOptions {
  agents: number;
  /** Delay of every model call (ms). */
  delayMs: number;
  /** Each agent gives a different answer (default: all the same, as agreeing models do). */
  distinct?: boolean;
  /** Extra environment (e.g. a HOME with history). */
  home?: string;
  /** The Node binary to run the CLI with (default: this process's). */
  execPath?: string;
  /** The CLI to run (default {@link CLI}). */
  cli?: string;
}

const tokens = (body: Record<string, unknown>) =>
  Math.max(1, Math.ceil(JSON.stringify(body.messages ?? "").length / 4));

/** A team of `agents` `chatcompletion` agents on the fake server at `url`, as YAML. */
export function teamYaml(url: string, agents: number): string {
  const lines = ["agents:"];
  for (let index = 1; index <= agents; index++) {
    lines.push(
      `  - id: agent_${index}`,
      `    backend: { type: chatcompletion, model: model-${index}, base_url: "${url}" }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Runs the CLI once on a fresh fake server and returns its figures.
 * @throws Error when the CLI exits non-zero or prints no answer.
 */
export async function runProcess(options: RunOptions): Promise<ProcessRun> {
  const starts: number[] = [];
  /** Each call's start and the end of its response, in arrival order. */
  const spans: { start: number; end: number }[] = [];
  let promptTokens = 0;
  let lastResponse = 0;
  const answer = (request: FakeRequest) =>
    options.distinct === true
      ? `Answer of ${summarizeRequest(request).model}: 2+2=4, shown a different way.`
      : "The answer is 4.";
  const server = await startFakeOpenAIServer(async (request: FakeRequest) => {
    const span = { start: performance.now(), end: Infinity };
    starts.push(span.start);
    spans.push(span);
    promptTokens += tokens(request.body);
    if (options.delayMs > 0) await sleep(options.delayMs);
    const reply = agreeingModel(request, answer);
    lastResponse = performance.now(); // the server writes the reply in this same tick
    span.end = lastResponse;
    return reply;
  });
  const dir = mkdtempSync(join(tmpdir(), "coord-bench-"));
  try {
    const home = options.home ?? join(dir, "home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(dir, "team.yaml"), teamYaml(server.url, options.agents));
    const probe = join(dir, "probe.json");
    const spawned = performance.now();
    const child = spawn(
      options.execPath ?? process.execPath,
      [
        "--import",
        PROBE,
        options.cli ?? CLI,
        "--config",
        "team.yaml",
        "--no-display",
        "What is 2+2?",
      ],
      {
        cwd: dir,
        env: { ...process.env, HOME: home, COORD_BENCH_PROBE: probe, OPENAI_API_KEY: "sk-bench" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    const exited = performance.now();
    if (code !== 0 || !stdout.includes("4")) {
      throw new Error(`coord exited ${code}: ${stderr.trim() || stdout.trim()}`);
    }
    const report = JSON.parse(readFileSync(probe, "utf8")) as ProbeReport;
    return {
      wallMs: exited - spawned,
      firstRequestMs: (starts[0] ?? exited) - spawned,
      exitTailMs: exited - lastResponse,
      exitTailCpuMs: report.cpuMs - (report.cpuAtLastResponseMs ?? report.cpuMs),
      calls: starts.length,
      waves: countWaves(spans),
      promptTokens,
      cpuMs: report.cpuMs,
      cpuAfterStartMs: report.cpuMs - (report.cpuAtFirstRequestMs ?? report.cpuMs),
      cpuAtFirstRequestMs: report.cpuAtFirstRequestMs ?? report.cpuMs,
      peakRssMb: report.peakRssMb,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The waves of a run: the longest chain of calls each started after the previous one's response
 * (a call's depth is 1 + the largest depth among the calls answered before it started). Causal,
 * so a slow machine that spreads one wave's starts out does not split it.
 */
function countWaves(spans: readonly { start: number; end: number }[]): number {
  const depth: number[] = [];
  for (const [index, span] of spans.entries()) {
    let before = 0;
    for (let other = 0; other < index; other++) {
      if (spans[other]!.end <= span.start) before = Math.max(before, depth[other]!);
    }
    depth.push(before + 1);
  }
  return Math.max(0, ...depth);
}
