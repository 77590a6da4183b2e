/**
 * Prompt tokens per team run against self-consistency at equal model calls, for
 * `npm run bench`: `node dist/bench/prompt-tokens.js` prints the rows alone.
 *
 * The simulated agents of `coord eval` (test/support/eval-sim.ts: p = 0.6, q = 0.7, seed 26)
 * answer the first {@link ITEMS} items of GSM8K's test split (`../shared/data/gsm8k/test.jsonl`;
 * synthetic `Item N` questions when it is absent) behind the fake OpenAI server on 127.0.0.1,
 * through the real `chatcompletion` backend, in this process. Per item: one team run in voting
 * mode (the defaults: votes by conclusion, the `fresh_answers` tie round, a presentation that
 * keeps the winner's conclusion) with 3, 5 and 10 agents, and one `single`-mode run of the first
 * agent, as self-consistency samples it; self-consistency at equal calls sends that run's prompt
 * once per call the team made. Tokens are the fake server's estimate, as `coord eval` reports
 * them: the request's message characters (JSON) / 4; tool schemas are not counted.
 *
 * Two kinds of answers: the simulation's one-line answers, and worked answers (the item's GSM8K
 * reference working, about 300 characters, ending in the agent's number), closer to what a model
 * writes. Each row splits the team's tokens by call type: first answers, votes, the tie round's
 * fresh answers, the presentation (tokens per call × calls per run).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createBackend } from "../src/backends/registry.js";
import type { Backend } from "../src/backends/index.js";
import { systemClock } from "../src/clock.js";
import type { AgentConfig } from "../src/config/index.js";
import { runCoordination, type RunCoordinationOptions } from "../src/engine/run.js";
import { DEFAULT_SETTINGS } from "../src/engine/test-helpers.js";
import { gsm8kReference } from "../src/eval/numbers.js";
import { simulatedAgents } from "../test/support/eval-sim.js";
import {
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeReply,
  type FakeRequest,
} from "../test/support/fake-openai-server.js";
import { ROOT } from "./measure.js";
import { formatTable, type Row } from "./table.js";

/** Items per team size. */
export const ITEMS = 20;
/** The goal: the team's prompt tokens at most this many times self-consistency's. */
export const GOAL_RATIO = 1.1;

const CALL_TYPES = ["first answer", "vote", "tie answer", "presentation", "other"] as const;
type CallType = (typeof CALL_TYPES)[number];

interface Item {
  question: string;
  value: number;
  working: string;
}

function loadItems(): Item[] {
  const file = join(ROOT, "..", "shared", "data", "gsm8k", "test.jsonl");
  if (!existsSync(file)) {
    return Array.from({ length: ITEMS }, (_, index) => ({
      question: `Item ${index + 1}: what is ${index + 1} times 3?`,
      value: (index + 1) * 3,
      working: `${index + 1} times 3 is ${(index + 1) * 3}.`,
    }));
  }
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, ITEMS)
    .map((line) => {
      const parsed = JSON.parse(line) as { question: string; answer: string };
      const working = parsed.answer
        .split("####")[0]!
        .replace(/<<[^>]*>>/g, "")
        .trim();
      return {
        question: parsed.question,
        value: gsm8kReference(parsed.answer) ?? 0,
        working,
      };
    });
}

const tokensOf = (body: Record<string, unknown>) =>
  Math.max(1, Math.ceil(JSON.stringify(body.messages ?? "").length / 4));

/**
 * The kind of a request: no tools, the presentation; `vote` offered, a vote; `new_answer` alone,
 * the agent's first answer of the run, or a tie round's fresh answer (the same prompt, later).
 * @param answered agents (by system message) that gave their first answer in this run.
 */
function callType(request: FakeRequest, answered: Set<string>): CallType {
  const summary = summarizeRequest(request);
  if (summary.toolNames.length === 0) return "presentation";
  if (summary.toolNames.includes("vote")) return "vote";
  if (!summary.toolNames.includes("new_answer")) return "other";
  if (answered.has(summary.system)) return "tie answer";
  answered.add(summary.system);
  return "first answer";
}

/** Tokens and calls of one kind of run, summed over the items. */
interface Tally {
  calls: number;
  tokens: number;
  byType: Map<CallType, { calls: number; tokens: number }>;
  /** Agents (by system message) that gave their first answer. */
  answered: Set<string>;
}

const emptyTally = (): Tally => ({ calls: 0, tokens: 0, byType: new Map(), answered: new Set() });

/** One team size's figures over the items. */
export interface PromptTokenFigures {
  agents: number;
  answers: "one-line" | "worked";
  items: number;
  /** The team's mean prompt tokens and model calls per item. */
  teamTokens: number;
  teamCalls: number;
  /** Self-consistency's mean prompt tokens per item at the team's calls on each item. */
  scTokens: number;
  byType: Map<CallType, { calls: number; tokens: number }>;
}

/**
 * Runs the team of `agents` simulated agents and the single-agent runs on every item.
 * @throws Error when a run does not complete.
 */
export async function measurePromptTokens(
  agents: number,
  answers: "one-line" | "worked",
  unanimous: "vote" | "skip_votes" = "vote",
): Promise<PromptTokenFigures> {
  const settings = { ...DEFAULT_SETTINGS, unanimous };
  const items = loadItems();
  const sim = simulatedAgents({
    p: 0.6,
    q: 0.7,
    seed: 26,
    items: items.map(({ question, value }) => ({ question, value })),
  });
  let tally = emptyTally();
  const server = await startFakeOpenAIServer((request: FakeRequest) => {
    const reply = sim.handler(request) as FakeReply;
    const type = callType(request, tally.answered);
    const tokens = tokensOf(request.body);
    tally.calls++;
    tally.tokens += tokens;
    const entry = tally.byType.get(type) ?? { calls: 0, tokens: 0 };
    tally.byType.set(type, { calls: entry.calls + 1, tokens: entry.tokens + tokens });
    return answers === "worked" ? withWorking(reply, request, items) : reply;
  });
  try {
    const backends: Backend[] = [];
    for (let k = 1; k <= agents; k++) {
      const config = {
        id: `sim-${k}`,
        backend: {
          type: "chatcompletion",
          model: `sim-model-${k}`,
          base_url: server.url,
          api_key: "sk-bench",
        },
      } as unknown as AgentConfig;
      backends.push(await createBackend(config, k - 1, { env: {}, cwd: ROOT }));
    }
    const team = backends.map((backend, index) => ({
      id: `sim-${index + 1}`,
      backend,
      systemMessage: `[agent sim-${index + 1}]`,
    }));
    const byType = new Map<CallType, { calls: number; tokens: number }>();
    let teamTokens = 0;
    let teamCalls = 0;
    let scTokens = 0;
    for (const item of items) {
      tally = emptyTally();
      await run(item.question, "voting", team, settings);
      const teamRun = tally;
      tally = emptyTally();
      await run(item.question, "single", team.slice(0, 1), settings);
      teamTokens += teamRun.tokens;
      teamCalls += teamRun.calls;
      scTokens += (tally.tokens / Math.max(1, tally.calls)) * teamRun.calls;
      for (const [type, entry] of teamRun.byType) {
        const sum = byType.get(type) ?? { calls: 0, tokens: 0 };
        byType.set(type, { calls: sum.calls + entry.calls, tokens: sum.tokens + entry.tokens });
      }
    }
    const n = items.length;
    return {
      agents,
      answers,
      items: n,
      teamTokens: teamTokens / n,
      teamCalls: teamCalls / n,
      scTokens: scTokens / n,
      byType,
    };
  } finally {
    await server.close();
  }
}

/** The sim's answer with the item's worked solution before it (same number at the end). */
function withWorking(reply: FakeReply, request: FakeRequest, items: readonly Item[]): FakeReply {
  const call = reply.toolCalls?.[0];
  if (call?.name !== "new_answer" || typeof call.arguments !== "object") return reply;
  const text = summarizeRequest(request).text;
  const item = items.find((entry) => text.includes(entry.question));
  const given = (call.arguments as { content?: unknown }).content;
  const content = typeof given === "string" ? given : "";
  if (item === undefined) return reply;
  return {
    ...reply,
    toolCalls: [{ ...call, arguments: { content: `${item.working}\n${content}` } }],
  };
}

async function run(
  question: string,
  mode: "voting" | "single",
  agents: readonly { id: string; backend: Backend; systemMessage: string }[],
  settings: RunCoordinationOptions["settings"],
): Promise<void> {
  let end: unknown;
  for await (const event of runCoordination({
    runId: "run_bench_tokens",
    question,
    mode,
    orchestratorTimeoutMs: 600_000,
    clock: systemClock,
    settings,
    agents,
  })) {
    if (event.type === "run-end") end = event.reason;
  }
  if (end !== "completed") throw new Error(`a ${mode} run ended ${String(end)}`);
}

/**
 * The rows: one per team size and kind of answer, with the defaults, then the same with
 * `orchestrator.unanimous: skip_votes` (no vote round when every answer has one number).
 */
export async function promptTokenRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const unanimous of ["vote", "skip_votes"] as const)
    for (const answers of ["one-line", "worked"] as const)
      for (const agents of [3, 5, 10])
        rows.push(promptTokenRow(await measurePromptTokens(agents, answers, unanimous), unanimous));
  return rows;
}

/** One row: the team's tokens against self-consistency's, split by call type. */
function promptTokenRow(figures: PromptTokenFigures, unanimous: "vote" | "skip_votes"): Row {
  const { agents, answers } = figures;
  const ratio = figures.teamTokens / figures.scTokens;
  const split = CALL_TYPES.flatMap((type) => {
    const entry = figures.byType.get(type);
    if (entry === undefined) return [];
    const calls = entry.calls / figures.items;
    return [`${type} ${(entry.tokens / entry.calls).toFixed(0)}×${calls.toFixed(2)}`];
  });
  const variant = unanimous === "skip_votes" ? ", unanimous: skip_votes" : "";
  return {
    figure: `prompt tokens per team run, ${agents} agents, ${answers} answers${variant}`,
    goal: `≤ ${GOAL_RATIO.toFixed(2)}× SC`,
    value: figures.teamTokens.toFixed(0),
    ratio: `${ratio.toFixed(2)}× SC (${figures.scTokens.toFixed(0)})`,
    status: ratio <= GOAL_RATIO ? "PASS" : "MISS",
    note: `${figures.teamCalls.toFixed(2)} calls; per call type, tokens×calls: ${split.join(", ")}; ${figures.items} GSM8K items`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(`${formatTable(await promptTokenRows())}\n`);
}
