/**
 * The real-models matrix (docs/real-models.md): one cell is a behaviour of the
 * misbehaving-model fake, played by the whole team (3 agents) or by one agent beside two sound
 * ones, in one mode (voting, `--quick`, `--single-agent`, decomposition, personas, `--plan`,
 * `--plan-and-execute`). {@link runCell} runs the built CLI on one GSM8K question against a fresh
 * fake on 127.0.0.1 and returns what a test asserts and the bench prints: exit code, output,
 * model calls and prompt tokens the fake counted, accepted answers in the run logs, and the
 * cell's call bound from the documented default budget.
 *
 * Imports nothing from vitest: the end-to-end tests and `bench/real-models.ts` both use it.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { defaultBudget } from "../../src/engine/budget.js";
import { parseEventLog } from "../../src/events/jsonl.js";
import { spawn } from "node:child_process";
import { CLI, makeSandbox, type CliResult } from "./cli.js";
import { misbehavingHandler, type ModelStats } from "./fake-openai/misbehaving-handler.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./fake-openai-server.js";

/** GSM8K's first test question; its answer is 18. */
export const QUESTION =
  "Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?";

/** How each mode is asked for on the command line, its team size and its runs. */
export const MODES = {
  voting: { args: [], agents: 3, runs: 1 },
  quick: { args: ["--quick"], agents: 3, runs: 1 },
  single: { args: ["--single-agent", "a"], agents: 1, runs: 1 },
  decomposition: { args: ["--coordination-mode", "decomposition"], agents: 3, runs: 1 },
  personas: { args: ["--personas", "perspective"], agents: 3, runs: 1 },
  plan: { args: ["--plan"], agents: 3, runs: 1 },
  // Planning, then one execution run per chunk (the sound plan has one chunk).
  "plan-and-execute": { args: ["--plan-and-execute"], agents: 3, runs: 2 },
} as const satisfies Record<string, { args: readonly string[]; agents: number; runs: number }>;
export type Mode = keyof typeof MODES;

/** One cell: a model name's behaviour (`plain-text`, `unknown-tool@30`, …), who plays it, a mode. */
export interface Cell {
  behaviour: string;
  /** `whole`: every agent plays it; `one`: agent c plays it beside two sound agents a and b. */
  team: "whole" | "one";
  mode: Mode;
}

const cells = (mode: Mode, team: Cell["team"], behaviours: readonly string[]): Cell[] =>
  behaviours.map((behaviour) => ({ behaviour, team, mode }));

/**
 * The matrix's cells, one list per test file (test/real-models-*.test.ts) and all of them in
 * `npm run bench`. Every behaviour and every mode is covered at least once; the cells left out of
 * the full cross product (7 modes × 2 teams × 12 behaviours, and their rates) are named with each
 * list. `other-mode-tool` is left out of every list but voting (whole team) and `--plan`: it is
 * `unknown-tool`'s case with a real tool's name, and those two cover both of its directions.
 * Rates are sampled (`@30`, `@50`), a few per mode.
 */
export const MATRIX = {
  /**
   * Voting, the whole team. Left out: `plan-text` (it misbehaves only where `submit_plan` is
   * offered).
   */
  votingWhole: cells("voting", "whole", [
    "sound",
    "plain-text",
    "empty",
    "unknown-tool",
    "other-mode-tool",
    "cutoff-json",
    "two-answers",
    "resubmit",
    "never-votes",
    "copies-part",
    "no-required",
    // Each answer (≈ 400 tokens) fits the 1,200-token window alone, not three in the vote prompt.
    "small-context-1200",
    "unknown-tool@30",
    "never-votes@50",
  ]),
  /** Voting, agent c misbehaving beside two sound agents. Left out: `plan-text` (as above). */
  votingOne: cells("voting", "one", [
    "plain-text",
    "empty",
    "unknown-tool",
    "cutoff-json",
    "two-answers",
    "resubmit",
    "never-votes",
    "copies-part",
    "no-required",
    // The first prompt (≈ 190 tokens) already exceeds the 150-token window.
    "small-context-150",
    "plain-text@30",
  ]),
  /**
   * `--quick` and `--single-agent a`. A model answers once and nobody votes, so `resubmit` and
   * `copies-part` are left out, and `--single-agent` has no "one of three" cells (its one agent
   * is the team). Left out besides: `plan-text` (planning only); `--quick` with one misbehaving
   * agent for `empty`, `cutoff-json`, `two-answers`, `no-required` (covered with the whole team,
   * and in voting with one agent).
   */
  quick: [
    ...cells("quick", "whole", [
      "plain-text",
      "empty",
      "unknown-tool",
      "cutoff-json",
      "two-answers",
      "never-votes",
      "no-required",
      // A rate whose deterministic rolls hit agent a's first reply (runs here are a few calls).
      "unknown-tool@50",
    ]),
    ...cells("quick", "one", ["plain-text", "unknown-tool", "small-context-150"]),
    ...cells("single", "whole", [
      "plain-text",
      "empty",
      "unknown-tool",
      "cutoff-json",
      "two-answers",
      "never-votes",
      "no-required",
      "small-context-150",
      "unknown-tool@50",
    ]),
  ],
  /**
   * Decomposition and personas. The first agent makes the decomposer or persona call, so "whole
   * team" cells also show a misbehaving planner. Left out: `plan-text` (planning only);
   * decomposition with `two-answers`, `no-required`; personas with `empty`, `cutoff-json`,
   * `copies-part` (each covered in voting, whose rounds these modes share); most behaviours with
   * one misbehaving agent (covered in voting).
   */
  modes: [
    ...cells("decomposition", "whole", [
      "sound",
      "copies-part",
      "resubmit",
      "never-votes",
      "plain-text",
      "cutoff-json",
      "small-context-1200",
      "never-votes@50",
    ]),
    ...cells("decomposition", "one", ["copies-part", "empty", "unknown-tool"]),
    ...cells("personas", "whole", [
      "plain-text",
      "never-votes",
      "resubmit",
      "unknown-tool",
      "no-required",
      "small-context-1200",
      "plain-text@30",
    ]),
    ...cells("personas", "one", ["plain-text", "two-answers"]),
  ],
  /**
   * `--plan` and `--plan-and-execute` (planning, then one execution run for the sound plan's one
   * chunk). Left out: `copies-part`, `two-answers` and `small-context` (about answers and votes,
   * covered in voting, whose rounds planning shares); `--plan-and-execute` only with the
   * behaviours that change what execution gets (`plan-text`, `plain-text`, `resubmit`, a rate).
   */
  planning: [
    ...cells("plan", "whole", [
      "sound",
      "plan-text",
      "plain-text",
      "unknown-tool",
      "other-mode-tool",
      "resubmit",
      "never-votes",
      "no-required",
    ]),
    ...cells("plan", "one", ["plan-text", "cutoff-json", "empty", "other-mode-tool"]),
    ...cells("plan-and-execute", "whole", ["sound", "plan-text", "resubmit", "unknown-tool@30"]),
    ...cells("plan-and-execute", "one", ["plain-text"]),
  ],
} satisfies Record<string, Cell[]>;

/** The cell's name in test titles and the bench table. */
export function cellName(cell: Cell): string {
  return `${cell.behaviour} × ${cell.team === "whole" ? "whole team" : "one of three"} × ${cell.mode}`;
}

/**
 * What stderr must name when the behaviour was played (the misbehaviour's diagnosis). Keys are
 * behaviours without rate or window. `never-votes` has none: the answer cap ends it by offering
 * only the vote, which needs no diagnosis.
 */
export const DIAGNOSIS: Record<string, RegExp> = {
  "plain-text": /plain text/i,
  empty: /empty/i,
  "unknown-tool": /unknown tool .?final_answer/i,
  "other-mode-tool":
    /(unknown tool|not a tool you have)[^\n]*(new_answer|submit_plan)|(new_answer|submit_plan)[^\n]*(unknown tool|not a tool you have)/i,
  "cutoff-json": /cut-off|malformed JSON/i,
  "two-answers": /two .*(answers|calls)|last one counts/i,
  resubmit: /repeated|identical|re-submitted|word for word/i,
  "copies-part": /word for word|identical|agreement/i,
  "no-required": /tool_choice/,
  // "plan" as a word (not `submit_plan`) and "text" on one line: the plan-as-text warning.
  "plan-text": /\bplan\b[^\n]*\btext\b|\btext\b[^\n]*\bplan\b/i,
  "small-context": /context/i,
};

/** The behaviour without `@rate` and `-N`, as {@link DIAGNOSIS} keys it. */
export function baseBehaviour(behaviour: string): string {
  return behaviour.split("@")[0]!.replace(/-\d+$/, "");
}

/**
 * Most model calls the cell may send: per run, the default budget's call limit plus the calls
 * already in flight when it is reached (`maxCalls + agents − 1`, src/engine/budget.ts).
 */
export function callBound(mode: Mode): number {
  const { agents, runs } = MODES[mode];
  const maxCalls = defaultBudget(agents).maxCalls ?? 20 * agents + 10;
  return runs * (maxCalls + agents - 1);
}

/** What one cell's run left behind. */
export interface CellResult extends CliResult {
  cell: Cell;
  /** Model calls the fake received (failed ones included). */
  calls: number;
  /** Prompt tokens the fake was sent (messages' characters / 4). */
  promptTokens: number;
  /** Replies in which the fake played the behaviour. */
  misbehaved: number;
  /** Replies the fake failed with an HTTP error (the provider failed, as far as coord knows). */
  failed: number;
  /** `answer` events in every events.jsonl of the run(s): answers coord accepted. */
  answers: number;
  /** Model calls the run logs count (`metrics.json` `totals.model_calls`, all runs summed). */
  loggedCalls: number;
  /** Failed model calls the run logs count (`totals.failed_model_calls`). */
  loggedFailedCalls: number;
  /** The most answers one agent had accepted in one run. */
  maxAnswersPerAgent: number;
  /** Accepted answers saying 17 (the ignored first call of `two-answers`). */
  wrongAnswers: number;
  bound: number;
  wallMs: number;
  perModel: Record<string, ModelStats>;
}

/** Short timeouts so a run that is not bounded by its budget still ends (seconds). */
const TIMEOUTS = [
  "timeout_settings:",
  "  orchestrator_timeout_seconds: 15",
  "  straggler_timeout_seconds: 5",
  "  request_timeout_seconds: 10",
];

/** The team config: agents a, b, c (or a alone) with the cell's model names. */
export function cellConfig(cell: Cell, url: string): string {
  const ids = ["a", "b", "c"];
  const agents = ids.map((id) => {
    const model = cell.team === "whole" || id === "c" ? `${id}/${cell.behaviour}` : `${id}/sound`;
    return `  - id: ${id}\n    backend: { type: chatcompletion, model: "${model}", base_url: "${url}" }`;
  });
  return ["agents:", ...agents, ...TIMEOUTS, ""].join("\n");
}

/**
 * Runs one cell: a fresh misbehaving fake, a sandbox, `coord --config team.yaml <mode flags>
 * --no-display QUESTION`.
 * @param options.timeoutMs kill the CLI after this long (default 60 000 ms).
 * @param options.cli the built CLI to run (default: `COORD_TEST_CLI` from the environment, e.g. a
 *   build of another checkout, else the repository's `dist/bin/coord.js`).
 */
export async function runCell(
  cell: Cell,
  options: { timeoutMs?: number; cli?: string } = {},
): Promise<CellResult> {
  const fake = misbehavingHandler();
  // The handler counts what the matrix needs; the server's own log of every request body is
  // dropped as it grows (a run that loops sends millions of prompt tokens).
  const server: FakeOpenAIServer = await startFakeOpenAIServer((request) => {
    server.requests.length = 0;
    return fake.handle(request);
  });
  try {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), cellConfig(cell, server.url));
    const started = performance.now();
    const result = await runAt(
      options.cli ?? process.env.COORD_TEST_CLI ?? CLI,
      ["--config", "team.yaml", ...MODES[cell.mode].args, "--no-display", QUESTION],
      { ...box, timeoutMs: options.timeoutMs ?? 60_000 },
    );
    const wallMs = performance.now() - started;
    const totals = fake.totals();
    return {
      ...result,
      cell,
      calls: totals.requests,
      promptTokens: totals.promptTokens,
      misbehaved: totals.misbehaved,
      failed: totals.failed,
      ...(await readLogs(box.cwd).then((logged) => ({
        answers: logged.answers,
        loggedCalls: logged.calls,
        loggedFailedCalls: logged.failedCalls,
        maxAnswersPerAgent: logged.maxAnswersPerAgent,
        wrongAnswers: logged.wrongAnswers,
      }))),
      bound: callBound(cell.mode),
      wallMs,
      perModel: fake.stats(),
    };
  } finally {
    await server.close();
  }
}

/** Runs `node <cli> ...args` in a sandbox (as `runCli`, with the CLI's path given). */
function runAt(
  cli: string,
  args: readonly string[],
  options: { cwd: string; home: string; timeoutMs: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: options.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What the run logs under a directory say: accepted answers and model calls (all runs summed). */
interface Logged {
  /** `answer` events in every events.jsonl. */
  answers: number;
  /** `totals.model_calls` of every metrics.json (failed ones included). */
  calls: number;
  /** `totals.failed_model_calls` of every metrics.json. */
  failedCalls: number;
  /** The most `answer` events one agent has in one events.jsonl (one run). */
  maxAnswersPerAgent: number;
  /** Accepted answers saying 17: the first of `two-answers`' two calls, which must not count. */
  wrongAnswers: number;
}

async function readLogs(root: string): Promise<Logged> {
  const logged: Logged = {
    answers: 0,
    calls: 0,
    failedCalls: 0,
    maxAnswersPerAgent: 0,
    wrongAnswers: 0,
  };
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (entry.name === "events.jsonl") {
      const { events } = parseEventLog(await readFile(path, "utf8"));
      const answers = events.filter((event) => event.type === "answer");
      logged.answers += answers.length;
      logged.wrongAnswers += answers.filter((event) => /answer is 17/.test(event.content)).length;
      const perAgent = new Map<string, number>();
      for (const { agentId = "" } of answers)
        perAgent.set(agentId, (perAgent.get(agentId) ?? 0) + 1);
      logged.maxAnswersPerAgent = Math.max(logged.maxAnswersPerAgent, ...perAgent.values());
    } else if (entry.name === "metrics.json") {
      const metrics = JSON.parse(await readFile(path, "utf8")) as {
        totals?: { model_calls?: number; failed_model_calls?: number };
      };
      logged.calls += metrics.totals?.model_calls ?? 0;
      logged.failedCalls += metrics.totals?.failed_model_calls ?? 0;
    }
  }
  return logged;
}

/** A one-line account of a cell's run, for failure messages and the bench. */
export function describeResult(result: CellResult): string {
  const lastLines = result.stderr.trimEnd().split("\n").slice(-4).join(" | ");
  return `exit ${String(result.code)}, ${result.calls} calls (bound ${result.bound}; logged ${result.loggedCalls}, ${result.loggedFailedCalls} failed), ${result.promptTokens} prompt tokens, ${result.misbehaved} misbehaved, ${result.answers} answers accepted (at most ${result.maxAnswersPerAgent} by one agent in a run), ${(result.wallMs / 1000).toFixed(1)} s; stdout ${JSON.stringify(result.stdout.slice(0, 80))}; stderr …${lastLines}`;
}
