/**
 * Simulated agents for `coord eval` tests, behind the fake OpenAI server: each agent answers an
 * item correctly with a seeded probability p (its own or a shared one), a wrong answer is a
 * number no other draw gives, an agent votes for the first answer that holds the same number as
 * its own (with `q`: an agent whose number is wrong recognises a right answer shown to it with
 * probability q and votes for it), and a presenter writes the majority number of the answers it
 * is shown (a tie goes to its own answer). A judge agent grades by comparing numbers.
 *
 * Data: item N's question is `Item N: what is N times 3?`, its reference `#### 3N`
 * ({@link simulatedDataset}), or the items of a real data set (`items`, e.g. GSM8K's test split:
 * test/support/eval-sim-server-main.ts serves that for runs by hand). Agents are told apart by their system message `[agent sim-K]`
 * (K = their 1-based position in the config, so their anonymous id is `agentK`); the judge's is
 * `[judge]`.
 *
 * Every request is a fresh draw with the same p (an answer) or q (a vote): the tie round's fresh
 * answers (`orchestrator.tie_break: fresh_answers`, the question alone, only `new_answer`) and
 * re-votes (`revote`) need nothing of their own. An agent that has no answer yet answers even when
 * it could vote.
 *
 * Every draw is logged (`draws`), so a test can compute the simulated truth itself. Team draws
 * (`team: true`) come from runs with several agents (an answering round's system prompt says
 * "You are one of", a voting round offers `vote`); the others from single-agent runs. Imports nothing from vitest: it is built into dist/.
 */
import type { FakeHandler } from "./fake-openai-server.js";
import { summarizeRequest } from "./fake-openai/summarize-request.js";

/** One answer an agent gave. */
export interface Draw {
  agent: string;
  item: number;
  team: boolean;
  correct: boolean;
  value: number;
}

/** Options of {@link simulatedAgents}. */
export interface SimulationOptions {
  /** Probability of a right answer: one for all agents, or per agent (`sim-1` …). */
  p: number | Readonly<Record<string, number>>;
  /**
   * Probability that an agent whose own number is wrong recognises a right answer it is shown and
   * votes for it (seeded per agent, item and vote). Absent: it always votes for its own number.
   */
  q?: number;
  seed: number;
  /** Milliseconds to wait before each reply (to kill a CLI mid-way). */
  delayMs?: number;
  /**
   * Items of a real data set (GSM8K's test split…): item N is the N-th entry whose question
   * appears in the request, its truth `value`. Without, items are read from `Item N:` questions.
   */
  items?: ReadonlyArray<{ question: string; value: number }>;
}

/** JSONL lines of items 1…n in the simulation's format. */
export function simulatedDataset(n: number): string {
  return Array.from({ length: n }, (_, index) => {
    const item = index + 1;
    return JSON.stringify({
      question: `Item ${item}: what is ${item} times 3?`,
      answer: `${item} times 3 is ${item * 3}.\n#### ${item * 3}`,
    });
  }).join("\n");
}

/** A team config of `agents` simulated agents on the fake server at `url`. */
export function simulatedTeamConfig(
  url: string,
  agents: number,
  options: { type?: "chatcompletion" | "openai"; model?: string } = {},
): string {
  const type = options.type ?? "chatcompletion";
  const lines = ["agents:"];
  for (let k = 1; k <= agents; k++) {
    lines.push(
      `  - id: sim-${k}`,
      `    system_message: "[agent sim-${k}]"`,
      `    backend: { type: ${type}, model: ${options.model ?? `sim-model-${k}`}, base_url: "${url}", api_key: sk-test }`,
    );
  }
  lines.push("ui:", "  logging_enabled: true");
  return `${lines.join("\n")}\n`;
}

/** A one-agent judge config on the fake server at `url`. */
export function simulatedJudgeConfig(url: string): string {
  return `agents:\n  - id: grader\n    system_message: "[judge]"\n    backend: { type: chatcompletion, model: judge-model, base_url: "${url}", api_key: sk-test }\n`;
}

/** The handler and its log of draws. */
export function simulatedAgents(options: SimulationOptions): {
  handler: FakeHandler;
  draws: Draw[];
  /** Model calls received, by kind. */
  calls: { answer: number; vote: number; present: number; judge: number };
} {
  const draws: Draw[] = [];
  const calls = { answer: 0, vote: 0, present: 0, judge: 0 };
  // Draws are keyed by (agent, item, team or alone, occurrence), not by arrival order, so runs
  // that go concurrently get the same draws as runs one at a time.
  const occurrences = new Map<string, number>();
  let wrongSerial = 0;
  const delay = options.delayMs ? { delayMs: options.delayMs } : {};

  const handler: FakeHandler = (request) => {
    const summary = summarizeRequest(request);
    if (summary.system.includes("[judge]")) {
      calls.judge++;
      const reference = lastNumber(
        between(summary.text, "<REFERENCE ANSWER>", "</REFERENCE ANSWER>"),
      );
      const candidate = lastNumber(
        between(summary.text, "<CANDIDATE ANSWER>", "</CANDIDATE ANSWER>"),
      );
      const verdict = reference !== undefined && reference === candidate ? "CORRECT" : "INCORRECT";
      return summary.toolNames.includes("new_answer")
        ? { toolCalls: [{ name: "new_answer", arguments: { content: verdict } }], ...delay }
        : { text: verdict, ...delay };
    }
    const agent = /\[agent (sim-\d+)\]/.exec(summary.system)?.[1] ?? "unknown";
    const position = Number(agent.slice("sim-".length));
    const known = options.items?.findIndex((entry) => summary.text.includes(entry.question));
    const item =
      known === undefined || known < 0
        ? Number(/Item (\d+):/.exec(summary.text)?.[1] ?? "0")
        : known + 1;
    const truth = known === undefined || known < 0 ? item * 3 : options.items![known]!.value;

    if (summary.toolNames.length === 0) {
      // The final presentation: the majority number among the answers, a tie to its own.
      calls.present++;
      const answers = [
        ...summary.text.matchAll(
          /<answer agent="([^"]+)"[^>]*?( yours)?>\n([\s\S]*?)\n<\/answer>/g,
        ),
      ];
      const values = answers.map((match) => ({
        value: lastNumber(match[3]!),
        yours: match[2] !== undefined,
      }));
      const counts = new Map<number, number>();
      for (const { value } of values)
        if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
      const top = Math.max(...counts.values());
      const leaders = [...counts].filter(([, count]) => count === top).map(([value]) => value);
      const own = values.find((entry) => entry.yours)?.value;
      const chosen = own !== undefined && leaders.includes(own) ? own : leaders[0];
      return { text: `Final answer: ${chosen}`, ...delay };
    }

    const answersBlock = summary.text.lastIndexOf("<CURRENT ANSWERS>");
    const shown =
      answersBlock < 0
        ? []
        : [...summary.text.slice(answersBlock).matchAll(/<(agent\d+)>\n([\s\S]*?)\n<\/\1>/g)].map(
            (match) => ({
              anon: match[1]!,
              value: lastNumber(match[2]!),
            }),
          );
    const own = shown.find((entry) => entry.anon === `agent${position}`)?.value;
    // A team's request: an answering round says the agent is one of a team, a round that shows
    // answers offers the vote (a single agent's says neither).
    const team =
      /You are one of \d+ agents/.test(summary.system) || summary.toolNames.includes("vote");
    // An agent with no answer yet answers when it may (a failed first round, then a round that
    // shows the others' answers); otherwise it votes. A tie round's fresh answer shows none.
    const answers = own === undefined && summary.toolNames.includes("new_answer");
    if (summary.toolNames.includes("vote") && shown.length > 0 && !answers) {
      calls.vote++;
      let target = shown.find((entry) => entry.value === own)?.anon ?? `agent${position}`;
      const right = shown.find((entry) => entry.value === truth);
      if (options.q !== undefined && right !== undefined && own !== truth) {
        const key = `vote|${agent}|${item}|${team}`;
        const occurrence = (occurrences.get(key) ?? 0) + 1;
        occurrences.set(key, occurrence);
        if (mulberry32(fnv1a(`${options.seed}|${key}|${occurrence}`))() < options.q)
          target = right.anon;
      }
      return {
        toolCalls: [
          { name: "vote", arguments: { agent_id: target, reason: "It holds my number." } },
        ],
        ...delay,
      };
    }
    calls.answer++;
    const p = typeof options.p === "number" ? options.p : (options.p[agent] ?? 0);
    const key = `${agent}|${item}|${team}`;
    const occurrence = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, occurrence);
    const correct = mulberry32(fnv1a(`${options.seed}|${key}|${occurrence}`))() < p;
    const value = correct ? truth : 1_000_000 + ++wrongSerial;
    draws.push({ agent, item, team, correct, value });
    return {
      toolCalls: [
        {
          name: "new_answer",
          arguments: { content: `${agent} works it out: the answer is ${value}.` },
        },
      ],
      ...delay,
    };
  };
  return { handler, draws, calls };
}

function between(text: string, open: string, close: string): string {
  const start = text.lastIndexOf(open);
  const end = text.indexOf(close, start);
  return start < 0 || end < 0 ? "" : text.slice(start + open.length, end);
}

/** The last number in the text: `65,960` and `2.5` as written (GSM8K's references use both). */
function lastNumber(text: string): number | undefined {
  const numbers = text.match(/\d+(?:,\d{3})*(?:\.\d+)?/g);
  return numbers ? Number(numbers.at(-1)!.replace(/,/g, "")) : undefined;
}

/** FNV-1a, 32 bits: a string to a seed. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
