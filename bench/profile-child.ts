/**
 * The in-process half of the per-call profile (`profile.ts`), run by whichever
 * Node the profile is measuring: `node dist/bench/profile-child.js <mode> <baseURL> <runs> <dir>`
 * (`dir`: an empty folder for the config and the logs, removed by the caller, so a `--cpu-prof`
 * of the child does not count its removal) prints one JSON line, {@link ChildReport}. The fake OpenAI server lives in the parent process,
 * so its CPU is not counted here. CPU is `process.cpuUsage()` (user + system, ms) around the
 * measured runs, after {@link WARMUPS} untimed ones (JIT, lazily loaded modules).
 *
 * Modes:
 * - `sdk`: the floor. A bare `doStream` loop of `@ai-sdk/openai-compatible`'s chat model (the
 *   provider coord's `chatcompletion` backend uses) making the calls a 3-agent voting run makes
 *   (3 answers with the `new_answer` tool, 3 votes with `new_answer` and `vote`, 1 presentation
 *   without tools), each stream read to its end. Nothing of coord's is loaded.
 * - `coord`: a 3-agent team of `chatcompletion` agents through coord's runner (`prepareRun`,
 *   `startRun`: backends with retries and pricing, engine, reducer, redaction, log writer),
 *   logs on. `coord-nolog`: the same with `--no-logs`.
 *
 * With `COORD_BENCH_CPU_PROF_DIR=<dir>` the measured runs (not the start-up, not the warm-ups)
 * are also sampled by V8's profiler (`node:inspector`, every {@link SAMPLE_US} µs) into
 * `<dir>/<mode>.cpuprofile`, the format `node --cpu-prof` writes (`cpu-attribution.ts` reads it).
 *
 * Exits 1 (reason on stderr) when a run does not complete, so a broken run never yields a figure.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

/** Untimed runs before the measured ones. */
export const WARMUPS = 3;
/** The profiler's sampling interval (µs) under `COORD_BENCH_CPU_PROF_DIR`. */
const SAMPLE_US = 100;

/** What the child prints (CPU in ms). */
export interface ChildReport {
  mode: string;
  node: string;
  runs: number;
  /** Model calls in the measured runs. */
  calls: number;
  /** CPU of the measured runs, per model call. */
  cpuPerCallMs: number;
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

interface Runner {
  /** One run; returns its model calls. */
  run(): Promise<number>;
}

async function sdkRunner(baseURL: string): Promise<Runner> {
  const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
  const provider = createOpenAICompatible({ name: "chatcompletion", baseURL, apiKey: "sk-bench" });
  const models = [1, 2, 3].map((index) => provider.chatModel(`model-${index}`));
  const newAnswer = {
    type: "function" as const,
    name: "new_answer",
    description: "Give your answer.",
    inputSchema: {
      type: "object" as const,
      properties: { content: { type: "string" as const } },
      required: ["content"],
    },
  };
  const vote = {
    type: "function" as const,
    name: "vote",
    description: "Vote for the best answer.",
    inputSchema: {
      type: "object" as const,
      properties: {
        agent_id: { type: "string" as const, enum: ["agent1", "agent2", "agent3"] },
        reason: { type: "string" as const },
      },
      required: ["agent_id", "reason"],
    },
  };
  const call = async (index: number, tools: readonly (typeof newAnswer | typeof vote)[]) => {
    const { stream } = await models[index]!.doStream({
      prompt: [
        { role: "system", content: "You are agent" + (index + 1) + " of a team." },
        { role: "user", content: [{ type: "text", text: "What is 2+2? Answers so far: …" }] },
      ],
      ...(tools.length > 0 ? { tools: [...tools], toolChoice: { type: "required" as const } } : {}),
      includeRawChunks: false,
    });
    const reader = stream.getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  };
  return {
    async run() {
      await Promise.all([0, 1, 2].map((index) => call(index, [newAnswer])));
      await Promise.all([0, 1, 2].map((index) => call(index, [newAnswer, vote])));
      await call(0, []);
      return 7;
    },
  };
}

async function coordRunner(baseURL: string, logs: boolean, dir: string): Promise<Runner> {
  const { prepareRun, runLogOptions, runTeam } = await import("../src/runner/index.js");
  const lines = ["agents:"];
  for (let index = 1; index <= 3; index++) {
    lines.push(
      `  - id: agent_${index}`,
      `    backend: { type: chatcompletion, model: model-${index}, base_url: "${baseURL}" }`,
    );
  }
  writeFileSync(join(dir, "team.yaml"), `${lines.join("\n")}\n`);
  const env = { ...process.env, HOME: dir, OPENAI_API_KEY: "sk-bench" };
  const prepared = await prepareRun(
    { config: join(dir, "team.yaml") },
    { cwd: dir, home: dir, env },
  );
  return {
    async run() {
      let calls = 0;
      const result = await runTeam({
        config: prepared.config,
        mode: prepared.mode,
        agentIndexes: prepared.agentIndexes,
        question: "What is 2+2?",
        env: prepared.env,
        cwd: dir,
        log: runLogOptions(prepared, {
          enabled: logs,
          cwd: dir,
          version: "0.0.0-bench",
          argv: ["--config", "team.yaml", "What is 2+2?"],
          debug: false,
        }),
        subscribers: [
          (event) => {
            if (event.type === "usage") calls++;
          },
        ],
      });
      if (result.state.endReason !== "completed") {
        throw new Error(`run ended ${String(result.state.endReason)}`);
      }
      return calls;
    },
  };
}

/** Starts V8's sampling profiler in this process (stopped by the caller). */
async function startProfiler(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: SAMPLE_US });
  await session.post("Profiler.start");
  return session;
}

async function main(): Promise<void> {
  const [mode, baseURL, runsText, dir] = process.argv.slice(2);
  const runs = Number(runsText);
  if (mode === undefined || baseURL === undefined || !Number.isInteger(runs) || runs < 1 || !dir) {
    throw new Error("usage: profile-child.js sdk|coord|coord-nolog <baseURL> <runs ≥ 1> <dir>");
  }
  let runner: Runner;
  if (mode === "sdk") runner = await sdkRunner(baseURL);
  else if (mode === "coord" || mode === "coord-nolog") {
    runner = await coordRunner(baseURL, mode === "coord", dir);
  } else throw new Error(`unknown mode ${mode}`);
  for (let index = 0; index < WARMUPS; index++) await runner.run();
  const profileDir = process.env.COORD_BENCH_CPU_PROF_DIR;
  const session = profileDir ? await startProfiler() : undefined;
  let calls = 0;
  const before = process.cpuUsage();
  for (let index = 0; index < runs; index++) calls += await runner.run();
  const cpu = cpuMs(process.cpuUsage(before));
  if (session !== undefined && profileDir) {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(join(profileDir, `${mode}.cpuprofile`), JSON.stringify(profile));
  }
  const report: ChildReport = {
    mode,
    node: process.version,
    runs,
    calls,
    cpuPerCallMs: cpu / calls,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`profile-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
