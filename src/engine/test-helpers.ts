/**
 * Helpers for engine tests and benchmarks: a scripted team, a run collected into an array, and
 * a one-line-per-event trace that makes whole event sequences readable in assertions.
 */
import {
  type Backend,
  createScriptedBackend,
  type ScriptedBackend,
  type ScriptedStep,
} from "../backends/index.js";
import { createVirtualClock, type Clock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import { type EngineAgent, runCoordination, type RunCoordinationOptions } from "./run.js";

/** Default orchestrator settings (the config schema's defaults). */
export const DEFAULT_SETTINGS: RunCoordinationOptions["settings"] = {
  voting_sensitivity: "lenient",
  answer_novelty_requirement: "lenient",
  max_new_answers_per_agent: undefined,
  max_new_answers_global: undefined,
  defer_voting_until_all_answered: true,
  skip_final_presentation: false,
};

/** A scripted team: agent ids → steps, in config order. */
export function scriptedTeam(
  scripts: Record<string, ScriptedStep[]>,
  clock: Clock,
): { agents: RunCoordinationOptions["agents"]; backends: Record<string, ScriptedBackend> } {
  const backends: Record<string, ScriptedBackend> = {};
  const agents = Object.entries(scripts).map(([id, steps]) => {
    backends[id] = createScriptedBackend({ steps, name: id, clock });
    return { id, backend: backends[id] };
  });
  return { agents, backends };
}

/**
 * Conclusion groups' team (docs/selection.md): alice and bob reach 18 in different words, carol
 * says 20; each votes for its own answer, so the votes split 1–1–1 by answer and 2–1 by
 * conclusion; alice presents. The same team as a config file: test/support/conclusion-team.ts.
 */
export const SPLIT_TEAM_SCRIPTS: Record<string, ScriptedStep[]> = {
  alice: [
    { answer: "Six pens at $3 each:\n6 × 3 = 18" },
    { vote: "agent1", reason: "mine" },
    { text: "Six pens cost $18.\nFinal answer: 18" },
  ],
  bob: [
    { answer: "Each pen is three dollars, so six of them cost\n**$18.00**" },
    { vote: "agent2", reason: "mine" },
  ],
  carol: [{ answer: "I count 20.\nThe answer is 20." }, { vote: "agent3", reason: "mine" }],
};

/** Runs a scripted team on a virtual clock and returns every event plus the backends. */
export async function runScripted(
  scripts: Record<string, ScriptedStep[]>,
  overrides: Partial<Omit<RunCoordinationOptions, "agents" | "settings">> & {
    settings?: Partial<RunCoordinationOptions["settings"]>;
    /** Extra fields of some agents (`subtask`, `systemMessage`, …), by agent id. */
    agentFields?: Record<string, Partial<Omit<EngineAgent, "id" | "backend">>>;
    /** Wraps each agent's scripted backend (e.g. to record when calls start). */
    wrapBackend?: (backend: Backend) => Backend;
  } = {},
): Promise<{ events: CoordEvent[]; backends: Record<string, ScriptedBackend> }> {
  const clock = overrides.clock ?? createVirtualClock();
  const team = scriptedTeam(scripts, clock);
  const { backends } = team;
  const agents = team.agents.map((agent) => ({
    ...agent,
    ...(overrides.wrapBackend ? { backend: overrides.wrapBackend(agent.backend) } : {}),
    ...overrides.agentFields?.[agent.id],
  }));
  const events: CoordEvent[] = [];
  for await (const event of runCoordination({
    runId: "run_test",
    question: "What is 2+2?",
    mode: "voting",
    orchestratorTimeoutMs: 1_800_000,
    clock,
    ...overrides,
    settings: { ...DEFAULT_SETTINGS, ...overrides.settings },
    agents,
  })) {
    events.push(event);
  }
  return { events, backends };
}

/**
 * One short line per event: `<agentId|-> <type> <key facts>`. Deltas are joined per agent and
 * round into one `text`/`reasoning`/`final` line so traces stay readable.
 */
export function trace(events: readonly CoordEvent[]): string[] {
  const lines: string[] = [];
  let lastDelta: { key: string; index: number } | undefined;
  for (const event of events) {
    const who = event.agentId ?? "-";
    if (isBlockBoundary(event)) continue;
    if (
      event.type === "text-delta" ||
      event.type === "reasoning-delta" ||
      event.type === "final-delta"
    ) {
      const kind = event.type.replace("-delta", "");
      const key = `${who} ${kind}`;
      if (lastDelta?.key === key) {
        lines[lastDelta.index] += event.text;
      } else {
        lastDelta = { key, index: lines.length };
        lines.push(`${key} ${event.text}`);
      }
      continue;
    }
    lastDelta = undefined;
    lines.push(`${who} ${event.type}${describe(event)}`);
  }
  return lines;
}

/**
 * Block starts and ends are left out of traces (the joined delta line stands for the block);
 * `blocks(events)` checks them separately.
 */
function isBlockBoundary(event: CoordEvent): boolean {
  return /^(text|reasoning|final)-(start|end)$/.test(event.type);
}

/**
 * The streamed blocks of a run as `<agentId> <kind> <blockId>: <text>`, checking on the way
 * that every block opens once, closes once, and carries deltas only in between.
 * @throws Error naming the event that breaks a block's start/delta/end order.
 */
export function blocks(events: readonly CoordEvent[]): string[] {
  const open = new Map<string, { line: number }>();
  const closed = new Set<string>();
  const lines: string[] = [];
  for (const event of events) {
    const match = /^(text|reasoning|final)-(start|delta|end)$/.exec(event.type);
    if (!match) continue;
    const [, kind, step] = match;
    const blockId = (event as { blockId: string }).blockId;
    const where = `event ${event.seq} (${event.type} ${blockId})`;
    if (step === "start") {
      if (open.has(blockId) || closed.has(blockId)) throw new Error(`${where}: opened twice`);
      open.set(blockId, { line: lines.length });
      lines.push(`${event.agentId ?? "-"} ${kind} ${blockId}: `);
    } else {
      const block = open.get(blockId);
      if (!block) throw new Error(`${where}: not open`);
      if (step === "delta") lines[block.line] += (event as { text: string }).text;
      else {
        open.delete(blockId);
        closed.add(blockId);
      }
    }
  }
  if (open.size > 0) throw new Error(`blocks never closed: ${[...open.keys()].join(", ")}`);
  return lines;
}

function describe(event: CoordEvent): string {
  switch (event.type) {
    case "run-start":
      return ` ${event.mode} ${event.agents.map((agent) => agent.anonId).join(",")}`;
    case "round-start":
      return ` r${event.round}.${event.attempt} ${event.kind}${event.produces ? `:${event.produces}` : ""} [${event.answersSeen.join(",")}]`;
    case "tool-call":
      return ` ${event.toolName}`;
    case "tool-result":
      return ` ${event.toolName}${event.isError ? " error" : ""}`;
    case "workflow-invalid":
      return ` r${event.round}.${event.attempt} ${event.message.split(/[.:;]/)[0]}`;
    case "update-injected":
      return ` ${event.via} [${event.labels.join(",")}]`;
    case "answer":
      return ` ${event.label}`;
    case "vote":
      return ` ${event.targetAnonId} (${event.label})`;
    case "vote-refused":
      return ` ${event.targetAnonId}`;
    case "votes-reset":
      return ` by ${event.causeLabel} cleared ${event.cleared}`;
    case "agent-error":
      return ` ${event.fatal ? "fatal" : "retry"}${event.status !== undefined ? ` ${event.status}` : ""}`;
    case "usage":
      return ` r${event.round}`;
    case "round-end":
      return ` r${event.round} ${event.outcome}`;
    case "winner":
      return ` ${event.anonId} ${event.label} votes=${event.votes} ${event.basis}${event.tieBroken ? " tie-broken" : ""}`;
    case "final-answer":
      return ` ${event.label} ${event.source}: ${event.content}`;
    case "stop":
      return ` ${event.status}${event.cause === "answer-cap" ? " (answer cap)" : ""}: ${event.summary}`;
    case "subtask":
      return ` ${event.anonId} ${event.source}: ${event.subtask}`;
    case "persona":
      return ` ${event.source ?? "generated"}: ${event.persona}`;
    case "warning":
      return ` ${event.source}: ${event.message}`;
    case "plan":
      return ` ${event.label} [${event.tasks.map((task) => `${task.id}@${task.chunk}`).join(",")}]`;
    case "broadcast-question":
      return ` ${event.questionId} to ${event.to}: ${event.question}`;
    case "broadcast-reply":
      return ` ${event.questionId} from ${event.from}: ${event.text}`;
    case "plan-execution":
      return ` ${event.planId} chunk ${event.chunk}/${event.chunks} [${event.tasks.map((task) => `${task.id}:${task.status}`).join(",")}]`;
    case "task-status":
      return ` ${event.taskId} ${event.status}`;
    case "task-added":
      return ` ${event.task.id} (${event.task.added_reason ?? ""})`;
    case "run-end":
      return ` ${event.reason}${event.error ? `: ${event.error}` : ""}`;
    default:
      return "";
  }
}
