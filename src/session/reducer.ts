/**
 * The one reducer (docs/architecture.md "One stream", CONTRIBUTING.md rule 3): folds the
 * CoordEvent stream into the view model every consumer shares — the terminal UI, the web UI, the
 * viewer's replay, `coord logs`, and the log writer's status.json / metrics.json.
 *
 * Pure and cheap: no clock, no IO; `reduceRun` never mutates its input and copies only what an
 * event touches (the top-level state, the agents array and the one agent; append-only arrays are
 * copied only on the rare events that grow them), so replaying thousands of events from a
 * 50-agent run stays linear.
 *
 * The view model is in run-state.ts, the usage/round/tool counters in counters.ts, and its
 * status.json / metrics.json renderings in status-json.ts / metrics-json.ts; this module
 * re-exports them all.
 */
import type { CoordEvent, EventOf, RoundOutcome } from "../events/index.js";
import { addRetry, addRound, addTool, addUsage, ZERO_COUNTERS, type Counters } from "./counters.js";
import { applyPlanEvent } from "./plan-state.js";
import {
  initialRunState,
  STREAM_TEXT_CAP,
  type AgentState,
  type AgentStatus,
  type RunState,
  type VoteRecord,
  type WarningRecord,
} from "./run-state.js";
import { winnerInfo } from "./winner-view.js";

export type { Counters, RoundCounts, ToolStats, UsageTotals } from "./counters.js";
export { costUsdOf } from "./counters.js";
export type { MetricsCountersJson, MetricsJson } from "./metrics-json.js";
export { toMetricsJson } from "./metrics-json.js";
export type {
  AgentErrorInfo,
  AgentState,
  AgentStatus,
  AnswerRecord,
  LimitRecord,
  RunPhase,
  RunState,
  VoteRecord,
  WarningRecord,
  WinnerGroup,
  WinnerInfo,
} from "./run-state.js";
export { initialRunState, STREAM_TEXT_CAP, wallTimeMs } from "./run-state.js";
export type { StatusAgentJson, StatusJson, UsageSummaryJson } from "./status-json.js";
export { SUMMARY_SCHEMA_VERSION, toStatusJson, usageSummaryJson } from "./status-json.js";

/** Feeds events, oldest first, through {@link reduceRun} from {@link initialRunState}. */
export function replay(events: Iterable<CoordEvent>): RunState {
  let state = initialRunState();
  for (const event of events) state = reduceRun(state, event);
  return state;
}

/**
 * Applies one event. Pure: returns a new state (sharing unchanged parts) and never mutates
 * `state`. Events about an agent not named in `run-start` still count in `totals`.
 */
export function reduceRun(state: RunState, event: CoordEvent): RunState {
  const at = Date.parse(event.time);
  const base: RunState = {
    ...state,
    lastSeq: event.seq,
    eventCount: state.eventCount + 1,
    lastEventAt: Number.isNaN(at) ? state.lastEventAt : at,
  };
  return applyEvent(base, event, Number.isNaN(at) ? (state.lastEventAt ?? 0) : at);
}

function applyEvent(state: RunState, event: CoordEvent, at: number): RunState {
  const id = event.agentId;
  switch (event.type) {
    case "run-start":
      return {
        ...state,
        runId: event.runId,
        question: event.question,
        mode: event.mode,
        historyTurns: event.historyTurns,
        startedAt: at,
        agents: event.agents.map((agent) => newAgent(agent)),
        agentIndex: Object.fromEntries(event.agents.map((agent, index) => [agent.id, index])),
      };
    case "round-start":
      return {
        ...(state.phase === "starting" ? { ...state, phase: "coordinating" } : state),
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          status: event.kind === "final" ? "presenting" : "thinking",
          round: event.round,
          attempt: event.attempt,
          roundKind: event.kind,
          activeTool: null,
          // A new coordination round means the agent works again (woken from its stop).
          ...(event.kind === "coordinate" ? { stop: null } : {}),
          ...(event.attempt === 1 ? { text: "", reasoning: "" } : {}),
        })),
      };
    case "text-delta":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          text: appendCapped(agent.text, event.text),
        })),
      };
    case "reasoning-delta":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          reasoning: appendCapped(agent.reasoning, event.text),
        })),
      };
    case "tool-call":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          activeTool: event.toolName,
          status: agent.status === "thinking" ? "tool" : agent.status,
        })),
      };
    case "tool-result": {
      const add = (counters: Counters) => addTool(counters, event);
      return {
        ...state,
        totals: add(state.totals),
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          activeTool: null,
          status: agent.status === "tool" ? "thinking" : agent.status,
          counters: add(agent.counters),
        })),
      };
    }
    case "answer":
      return {
        ...state,
        answers: [
          ...state.answers,
          {
            label: event.label,
            agentId: id ?? "",
            anonId: event.anonId,
            round: event.round,
            content: event.content,
            time: at,
          },
        ],
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          status: "answered",
          answerCount: agent.answerCount + 1,
          currentAnswerLabel: event.label,
        })),
      };
    case "vote":
      return applyVote(state, event, at);
    case "votes-reset":
      return {
        ...state,
        votes: [],
        votesResetCount: state.votesResetCount + 1,
        agents: state.agents.some((agent) => agent.vote !== null)
          ? state.agents.map((agent) =>
              agent.vote === null
                ? agent
                : {
                    ...agent,
                    vote: null,
                    status: agent.status === "voted" ? "waiting" : agent.status,
                  },
            )
          : state.agents,
      };
    case "stop":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          status: "stopped",
          stop: { status: event.status, summary: event.summary },
        })),
      };
    case "agent-error":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          status: event.fatal ? "removed" : "error",
          activeTool: null,
          lastError: {
            message: event.message,
            ...(event.provider === undefined ? {} : { provider: event.provider }),
            ...(event.status === undefined ? {} : { status: event.status }),
            retryable: event.retryable,
            fatal: event.fatal,
            ...(event.cause === undefined ? {} : { cause: event.cause }),
            round: event.round,
            time: at,
          },
        })),
      };
    case "limit-reached":
      return {
        ...state,
        limitsReached: [
          ...state.limitsReached,
          {
            scope: event.scope,
            limit: event.limit,
            used: event.used,
            max: event.max,
            agentId: event.agentId ?? null,
            message: event.message,
          },
        ],
      };
    case "straggler-cut":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          status: "removed",
          activeTool: null,
          lastError: {
            message: event.message,
            retryable: false,
            fatal: true,
            round: event.round,
            time: at,
          },
        })),
      };
    case "usage": {
      const add = (counters: Counters) => addUsage(counters, event);
      return {
        ...state,
        totals: add(state.totals),
        agents: updateAgent(state, id, (agent) => ({ ...agent, counters: add(agent.counters) })),
      };
    }
    case "round-end": {
      const add = (counters: Counters) => addRound(counters, event.outcome, event.durationMs);
      return {
        ...state,
        totals: add(state.totals),
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          activeTool: null,
          status: isActive(agent.status) ? statusAfterRound(event.outcome) : agent.status,
          counters: add(agent.counters),
        })),
      };
    }
    case "persona":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({ ...agent, persona: event.persona })),
      };
    case "subtask":
      return {
        ...state,
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          subtask: { text: event.subtask, source: event.source },
        })),
      };
    case "winner": {
      const agentId = id ?? state.agents.find((agent) => agent.anonId === event.anonId)?.id ?? null;
      return {
        ...state,
        phase: state.phase === "done" ? "done" : "presenting",
        winner: winnerInfo(state, event, agentId),
      };
    }
    case "final-start": {
      const presenterId = id ?? state.winner?.agentId ?? null;
      return {
        ...state,
        phase: state.phase === "done" ? "done" : "presenting",
        presenterId,
        finalAnswer: "",
        agents: updateAgent(state, presenterId ?? undefined, (agent) => ({
          ...agent,
          status: "presenting",
        })),
      };
    }
    case "final-delta":
      return { ...state, finalAnswer: (state.finalAnswer ?? "") + event.text };
    case "retry": {
      const add = (counters: Counters) => addRetry(counters, event);
      return {
        ...state,
        totals: add(state.totals),
        agents: updateAgent(state, id, (agent) => ({ ...agent, counters: add(agent.counters) })),
      };
    }
    case "warning":
      return { ...state, warnings: addWarning(state.warnings, event) };
    case "workspace-snapshot":
      return {
        ...state,
        snapshots: [
          ...state.snapshots,
          {
            agentId: id ?? "",
            label: event.label,
            workspace: event.workspace,
            files: event.files,
            bytes: event.bytes,
            logPath: event.logPath ?? null,
          },
        ],
      };
    case "final-answer": {
      const presenterId = id ?? state.presenterId ?? state.winner?.agentId ?? null;
      return {
        ...state,
        presenterId,
        finalAnswer: event.content,
        finalAnswerLabel: event.label,
        finalAnswerSource: event.source,
        agents: updateAgent(state, presenterId ?? undefined, (agent) => ({
          ...agent,
          status: "done",
          activeTool: null,
        })),
      };
    }
    case "run-end":
      return {
        ...state,
        phase: "done",
        endedAt: at,
        durationMs: event.durationMs,
        endReason: event.reason,
        error: event.error ?? null,
        degraded: event.degraded ?? [],
      };
    case "plan":
    case "broadcast-question":
    case "broadcast-reply":
    case "plan-execution":
    case "task-status":
    case "task-added":
      return applyPlanEvent(state, event);
    case "workflow-invalid":
    case "update-injected":
    case "vote-refused":
    case "text-start":
    case "text-end":
    case "reasoning-start":
    case "reasoning-end":
    case "final-end":
      return state;
  }
}

/** Adds a warning, or counts it again when the same source already said the same. */
function addWarning(
  warnings: readonly WarningRecord[],
  event: EventOf<"warning">,
): readonly WarningRecord[] {
  const index = warnings.findIndex(
    (warning) => warning.source === event.source && warning.message === event.message,
  );
  if (index < 0) {
    return [
      ...warnings,
      { source: event.source, message: event.message, agentId: event.agentId ?? null, count: 1 },
    ];
  }
  const updated = warnings.slice();
  updated[index] = { ...warnings[index]!, count: warnings[index]!.count + 1 };
  return updated;
}

function newAgent(info: EventOf<"run-start">["agents"][number]): AgentState {
  return {
    id: info.id,
    anonId: info.anonId,
    backend: info.backend,
    model: info.model,
    status: "waiting",
    round: 0,
    attempt: 0,
    roundKind: null,
    answerCount: 0,
    currentAnswerLabel: null,
    vote: null,
    stop: null,
    persona: null,
    subtask: null,
    text: "",
    reasoning: "",
    activeTool: null,
    lastError: null,
    counters: ZERO_COUNTERS,
  };
}

/** Index of a known agent, or undefined (own properties only, so "constructor" is not found). */
export function agentIndexOf(state: RunState, agentId: string | undefined): number | undefined {
  if (agentId === undefined || !Object.hasOwn(state.agentIndex, agentId)) return undefined;
  return state.agentIndex[agentId];
}

function updateAgent(
  state: RunState,
  agentId: string | undefined,
  update: (agent: AgentState) => AgentState,
): readonly AgentState[] {
  const index = agentIndexOf(state, agentId);
  const agent = index === undefined ? undefined : state.agents[index];
  if (index === undefined || agent === undefined) return state.agents;
  const agents = state.agents.slice();
  agents[index] = update(agent);
  return agents;
}

function applyVote(state: RunState, event: EventOf<"vote">, at: number): RunState {
  const index = agentIndexOf(state, event.agentId);
  const voter = index === undefined ? undefined : state.agents[index];
  const vote: VoteRecord = {
    voterId: event.agentId ?? "",
    voterAnonId: voter?.anonId ?? "",
    targetAgentId: event.targetAgentId,
    targetAnonId: event.targetAnonId,
    label: event.label,
    reason: event.reason,
    round: event.round,
    time: at,
  };
  return {
    ...state,
    votes: [...state.votes.filter((other) => other.voterId !== vote.voterId), vote],
    agents: updateAgent(state, event.agentId, (agent) => ({ ...agent, status: "voted", vote })),
  };
}

function isActive(status: AgentStatus): boolean {
  return status === "thinking" || status === "tool" || status === "presenting";
}

function statusAfterRound(outcome: RoundOutcome): AgentStatus {
  switch (outcome) {
    case "answer":
      return "answered";
    case "vote":
      return "voted";
    case "stop":
      return "stopped";
    case "final":
      return "done";
    case "plan":
      return "waiting";
    case "error":
      return "error";
    case "invalid":
    case "aborted":
      return "waiting";
  }
}

/** Appends and keeps the last {@link STREAM_TEXT_CAP} characters, never half a surrogate pair. */
function appendCapped(previous: string, text: string): string {
  const joined = previous + text;
  if (joined.length <= STREAM_TEXT_CAP) return joined;
  let start = joined.length - STREAM_TEXT_CAP;
  const code = joined.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return joined.slice(start);
}
