/**
 * The one reducer (ARCHITECTURE.md "One idea holds it together", STYLE.md rule 3): folds the
 * CoordEvent stream into the view model every consumer shares — the terminal UI, the web UI, the
 * viewer's replay, `coord logs`, and the log writer's status.json / metrics.json.
 *
 * Pure and cheap: no clock, no IO; `reduceRun` never mutates its input and copies only what an
 * event touches (the top-level state, the agents array and the one agent; append-only arrays are
 * copied only on the rare events that grow them), so replaying thousands of events from a
 * 50-agent run stays linear.
 *
 * Units: `*At` fields are milliseconds since the Unix epoch (parsed from event `time`), `*Ms`
 * fields are milliseconds, token counts are tokens.
 */
import type {
  CoordEvent,
  CoordinationMode,
  EventOf,
  RoundOutcome,
  RunEndReason,
  Usage,
} from "../events/events.js";

/** How far the run has got. `starting` until the first round, `presenting` from the winner. */
export type RunPhase = "starting" | "coordinating" | "presenting" | "done";

/** What an agent is doing now. `removed`: dropped from the team after a fatal error. */
export type AgentStatus =
  | "waiting"
  | "thinking"
  | "tool"
  | "answered"
  | "voted"
  | "stopped"
  | "error"
  | "removed"
  | "presenting"
  | "done";

/** Characters of streamed text and reasoning kept per agent (the latest ones). */
export const STREAM_TEXT_CAP = 4000;

/** Model usage summed over calls. Tokens are tokens; `modelCallMs` and `ttftMsTotal` are ms. */
export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly cachedInputTokens: number;
  readonly modelCalls: number;
  /** Sum of the model calls' wall time. */
  readonly modelCallMs: number;
  /** Sum of time-to-first-token over the calls that reported one. */
  readonly ttftMsTotal: number;
  /** Number of calls that reported a time-to-first-token. */
  readonly ttftCount: number;
}

/** Rounds counted by how they ended (`round-end.outcome`). */
export type RoundCounts = Readonly<Record<RoundOutcome, number>>;

/** One tool's calls, counted when its `tool-result` arrives. `totalMs` in ms. */
export interface ToolStats {
  readonly calls: number;
  readonly failures: number;
  readonly totalMs: number;
}

/** Usage, rounds and tools of one agent or of the whole run. */
export interface Counters {
  readonly usage: UsageTotals;
  readonly rounds: RoundCounts;
  /** Sum of `round-end.durationMs`. */
  readonly roundMs: number;
  /** Per tool name, in first-seen order. */
  readonly tools: Readonly<Record<string, ToolStats>>;
}

/** A valid vote on the current answer set. `time` in epoch ms. */
export interface VoteRecord {
  readonly voterId: string;
  readonly voterAnonId: string;
  readonly targetAgentId: string;
  readonly targetAnonId: string;
  /** Label of the answer voted for (`agent<N>.<M>`). */
  readonly label: string;
  readonly reason: string;
  readonly round: number;
  readonly time: number;
}

/** One submitted answer (every answer of the run, oldest first). `time` in epoch ms. */
export interface AnswerRecord {
  readonly label: string;
  readonly agentId: string;
  readonly anonId: string;
  readonly round: number;
  readonly content: string;
  readonly time: number;
}

/** The last error of an agent (`agent-error`). `status` is the provider's HTTP status. */
export interface AgentErrorInfo {
  readonly message: string;
  readonly provider?: string;
  readonly status?: number;
  readonly retryable: boolean;
  readonly fatal: boolean;
  readonly round: number;
  readonly time: number;
}

/** One agent's view model. */
export interface AgentState {
  readonly id: string;
  readonly anonId: string;
  readonly backend: string;
  readonly model: string;
  readonly status: AgentStatus;
  /** Current (or last) 1-based round; 0 before the first. */
  readonly round: number;
  readonly attempt: number;
  readonly roundKind: "coordinate" | "final" | "plan" | null;
  readonly answerCount: number;
  /** Label of the agent's current answer, `agent<N>.<M>`. */
  readonly currentAnswerLabel: string | null;
  readonly vote: VoteRecord | null;
  /** Decomposition mode: the agent's `stop`. */
  readonly stop: { readonly status: "complete" | "blocked"; readonly summary: string } | null;
  readonly persona: string | null;
  /** Streamed text of the current round: its last {@link STREAM_TEXT_CAP} characters. */
  readonly text: string;
  /** Streamed reasoning of the current round: its last {@link STREAM_TEXT_CAP} characters. */
  readonly reasoning: string;
  /** Name of the tool running now, if any. */
  readonly activeTool: string | null;
  readonly lastError: AgentErrorInfo | null;
  readonly counters: Counters;
}

/** The winner (`winner` event). `tally` counts votes per real agent id. */
export interface WinnerInfo {
  /** Real id; null only when the event named an anonymous id no agent has. */
  readonly agentId: string | null;
  readonly anonId: string;
  readonly label: string;
  readonly votes: number;
  readonly tally: Readonly<Record<string, number>>;
  readonly tieBroken: boolean;
  readonly basis: EventOf<"winner">["basis"];
}

/** The view model of one run. Build it with {@link initialRunState} and {@link reduceRun}. */
export interface RunState {
  readonly runId: string | null;
  readonly question: string;
  readonly mode: CoordinationMode | null;
  readonly historyTurns: number;
  readonly phase: RunPhase;
  /** Epoch ms of `run-start`. */
  readonly startedAt: number | null;
  /** Epoch ms of `run-end`. */
  readonly endedAt: number | null;
  /** `run-end.durationMs`. */
  readonly durationMs: number | null;
  /** Epoch ms of the latest event. */
  readonly lastEventAt: number | null;
  readonly lastSeq: number;
  readonly eventCount: number;
  readonly endReason: RunEndReason | null;
  readonly error: string | null;
  /** In config order. */
  readonly agents: readonly AgentState[];
  /** Real agent id → index in `agents` (own properties only). */
  readonly agentIndex: Readonly<Record<string, number>>;
  readonly answers: readonly AnswerRecord[];
  /** Valid votes on the current answer set, one per voter. */
  readonly votes: readonly VoteRecord[];
  readonly votesResetCount: number;
  readonly winner: WinnerInfo | null;
  /** Real id of the agent writing the final answer. */
  readonly presenterId: string | null;
  /** Accumulated from `final-delta`, replaced by `final-answer`; null before the final phase. */
  readonly finalAnswer: string | null;
  readonly finalAnswerLabel: string | null;
  readonly finalAnswerSource: "presentation" | "answer" | null;
  /** Whole-run counters; include events not attributed to a known agent. */
  readonly totals: Counters;
}

const ZERO_USAGE: UsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cachedInputTokens: 0,
  modelCalls: 0,
  modelCallMs: 0,
  ttftMsTotal: 0,
  ttftCount: 0,
};
const ZERO_ROUNDS: RoundCounts = {
  answer: 0,
  vote: 0,
  stop: 0,
  invalid: 0,
  error: 0,
  aborted: 0,
  final: 0,
};
const ZERO_COUNTERS: Counters = { usage: ZERO_USAGE, rounds: ZERO_ROUNDS, roundMs: 0, tools: {} };

/** The state before any event. */
export function initialRunState(): RunState {
  return {
    runId: null,
    question: "",
    mode: null,
    historyTurns: 0,
    phase: "starting",
    startedAt: null,
    endedAt: null,
    durationMs: null,
    lastEventAt: null,
    lastSeq: 0,
    eventCount: 0,
    endReason: null,
    error: null,
    agents: [],
    agentIndex: {},
    answers: [],
    votes: [],
    votesResetCount: 0,
    winner: null,
    presenterId: null,
    finalAnswer: null,
    finalAnswerLabel: null,
    finalAnswerSource: null,
    totals: ZERO_COUNTERS,
  };
}

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
    case "agent-round-start":
      return {
        ...(state.phase === "starting" ? { ...state, phase: "coordinating" } : state),
        agents: updateAgent(state, id, (agent) => ({
          ...agent,
          status: event.kind === "final" ? "presenting" : "thinking",
          round: event.round,
          attempt: event.attempt,
          roundKind: event.kind,
          activeTool: null,
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
    case "winner": {
      const agentId = id ?? state.agents.find((agent) => agent.anonId === event.anonId)?.id ?? null;
      return {
        ...state,
        phase: state.phase === "done" ? "done" : "presenting",
        winner: {
          agentId,
          anonId: event.anonId,
          label: event.label,
          votes: event.votes,
          tally: event.tally,
          tieBroken: event.tieBroken,
          basis: event.basis,
        },
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
      };
    case "workflow-invalid":
    case "update-injected":
    case "vote-refused":
      return state;
  }
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

function addUsage(counters: Counters, event: EventOf<"usage">): Counters {
  const usage: Usage = event.usage;
  const total = counters.usage;
  const ttft = event.timeToFirstTokenMs;
  return {
    ...counters,
    usage: {
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
      reasoningTokens: total.reasoningTokens + usage.reasoningTokens,
      cachedInputTokens: total.cachedInputTokens + usage.cachedInputTokens,
      modelCalls: total.modelCalls + 1,
      modelCallMs: total.modelCallMs + event.durationMs,
      ttftMsTotal: total.ttftMsTotal + (ttft ?? 0),
      ttftCount: total.ttftCount + (ttft === undefined ? 0 : 1),
    },
  };
}

function addRound(counters: Counters, outcome: RoundOutcome, durationMs: number): Counters {
  return {
    ...counters,
    rounds: { ...counters.rounds, [outcome]: counters.rounds[outcome] + 1 },
    roundMs: counters.roundMs + durationMs,
  };
}

function addTool(counters: Counters, event: EventOf<"tool-result">): Counters {
  const previous: ToolStats = Object.hasOwn(counters.tools, event.toolName)
    ? counters.tools[event.toolName]!
    : { calls: 0, failures: 0, totalMs: 0 };
  return {
    ...counters,
    tools: {
      ...counters.tools,
      [event.toolName]: {
        calls: previous.calls + 1,
        failures: previous.failures + (event.isError ? 1 : 0),
        totalMs: previous.totalMs + event.durationMs,
      },
    },
  };
}

/**
 * Wall time of the run in ms: `run-end.durationMs` when the run ended, else the time from
 * `run-start` to the latest event (0 before `run-start`).
 */
export function wallTimeMs(state: RunState): number {
  if (state.durationMs !== null) return state.durationMs;
  if (state.startedAt === null) return 0;
  return Math.max(0, (state.endedAt ?? state.lastEventAt ?? state.startedAt) - state.startedAt);
}

/** Version of the status.json and metrics.json shapes, written as `schema_version`. */
export const SUMMARY_SCHEMA_VERSION = 1;

/** One agent in status.json. */
export interface StatusAgentJson {
  id: string;
  anon_id: string;
  backend: string;
  model: string;
  status: AgentStatus;
  /** Current 1-based round; 0 before the first. */
  round: number;
  answer_count: number;
  /** `agent<N>.<M>` or null. */
  current_answer: string | null;
  vote: { target_agent_id: string; target_anon_id: string; label: string; reason: string } | null;
  last_error: { message: string; fatal: boolean; retryable: boolean; round: number } | null;
}

/**
 * status.json: a snapshot of the run, rewritten atomically while it goes on.
 *
 * ```
 * { schema_version: 1, run_id: string|null, question: string, mode: string|null,
 *   phase: "starting"|"coordinating"|"presenting"|"done",
 *   started_at / updated_at / ended_at: ISO-8601 UTC | null  (updated_at = latest event),
 *   elapsed_ms: number (ms, see wallTimeMs), last_seq: number, event_count: number,
 *   end_reason: "completed"|"failed"|"timeout"|"interrupted"|null, error: string|null,
 *   agents: StatusAgentJson[] (config order),
 *   answer_count: number, answers: [{label, agent_id, anon_id, round}] (oldest first, no content),
 *   votes: [{voter_id, voter_anon_id, target_agent_id, target_anon_id, label, reason}],
 *   vote_tally: {<real agent id>: votes}, votes_reset_count: number,
 *   winner: {agent_id, anon_id, label, votes, tally, tie_broken, basis} | null,
 *   presenter_id: string|null, final_answer_label: string|null, has_final_answer: boolean }
 * ```
 */
export interface StatusJson {
  schema_version: number;
  run_id: string | null;
  question: string;
  mode: CoordinationMode | null;
  phase: RunPhase;
  started_at: string | null;
  updated_at: string | null;
  ended_at: string | null;
  elapsed_ms: number;
  last_seq: number;
  event_count: number;
  end_reason: RunEndReason | null;
  error: string | null;
  agents: StatusAgentJson[];
  answer_count: number;
  answers: { label: string; agent_id: string; anon_id: string; round: number }[];
  votes: {
    voter_id: string;
    voter_anon_id: string;
    target_agent_id: string;
    target_anon_id: string;
    label: string;
    reason: string;
  }[];
  vote_tally: Record<string, number>;
  votes_reset_count: number;
  winner: {
    agent_id: string | null;
    anon_id: string;
    label: string;
    votes: number;
    tally: Record<string, number>;
    tie_broken: boolean;
    basis: WinnerInfo["basis"];
  } | null;
  presenter_id: string | null;
  final_answer_label: string | null;
  has_final_answer: boolean;
}

/** The status.json object for a state (shape: {@link StatusJson}). Pure. */
export function toStatusJson(state: RunState): StatusJson {
  const tally: Record<string, number> = {};
  for (const vote of state.votes) {
    tally[vote.targetAgentId] =
      (Object.hasOwn(tally, vote.targetAgentId) ? tally[vote.targetAgentId]! : 0) + 1;
  }
  const winner = state.winner;
  return {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: state.runId,
    question: state.question,
    mode: state.mode,
    phase: state.phase,
    started_at: isoTime(state.startedAt),
    updated_at: isoTime(state.lastEventAt),
    ended_at: isoTime(state.endedAt),
    elapsed_ms: wallTimeMs(state),
    last_seq: state.lastSeq,
    event_count: state.eventCount,
    end_reason: state.endReason,
    error: state.error,
    agents: state.agents.map((agent) => ({
      id: agent.id,
      anon_id: agent.anonId,
      backend: agent.backend,
      model: agent.model,
      status: agent.status,
      round: agent.round,
      answer_count: agent.answerCount,
      current_answer: agent.currentAnswerLabel,
      vote:
        agent.vote === null
          ? null
          : {
              target_agent_id: agent.vote.targetAgentId,
              target_anon_id: agent.vote.targetAnonId,
              label: agent.vote.label,
              reason: agent.vote.reason,
            },
      last_error:
        agent.lastError === null
          ? null
          : {
              message: agent.lastError.message,
              fatal: agent.lastError.fatal,
              retryable: agent.lastError.retryable,
              round: agent.lastError.round,
            },
    })),
    answer_count: state.answers.length,
    answers: state.answers.map((answer) => ({
      label: answer.label,
      agent_id: answer.agentId,
      anon_id: answer.anonId,
      round: answer.round,
    })),
    votes: state.votes.map((vote) => ({
      voter_id: vote.voterId,
      voter_anon_id: vote.voterAnonId,
      target_agent_id: vote.targetAgentId,
      target_anon_id: vote.targetAnonId,
      label: vote.label,
      reason: vote.reason,
    })),
    vote_tally: tally,
    votes_reset_count: state.votesResetCount,
    winner:
      winner === null
        ? null
        : {
            agent_id: winner.agentId,
            anon_id: winner.anonId,
            label: winner.label,
            votes: winner.votes,
            tally: { ...winner.tally },
            tie_broken: winner.tieBroken,
            basis: winner.basis,
          },
    presenter_id: state.presenterId,
    final_answer_label: state.finalAnswerLabel,
    has_final_answer: state.finalAnswer !== null && state.finalAnswer !== "",
  };
}

/** Counters of one agent or of the run, as written in metrics.json. */
export interface MetricsCountersJson {
  /** Token counts (tokens). `total` = input + output (reasoning is part of output where the provider counts it so; it is reported, not added). */
  tokens: { input: number; output: number; reasoning: number; cached_input: number; total: number };
  model_calls: number;
  /** Sum of model-call wall time, ms. */
  model_call_ms: number;
  /** Time to first token over the calls that reported it, ms; `mean_ms` null when count is 0. */
  time_to_first_token: { count: number; total_ms: number; mean_ms: number | null };
  /** Rounds by outcome, plus `total`. */
  rounds: Record<RoundOutcome | "total", number>;
  /** Sum of round wall time, ms. */
  round_ms: number;
  /** Per tool name: calls, failures (isError results), total and mean duration in ms. */
  tools: Record<string, { calls: number; failures: number; total_ms: number; mean_ms: number }>;
  tool_calls: number;
  tool_failures: number;
  /** Sum of tool durations, ms. */
  tool_ms: number;
  /** Filled from a price table later; null = unknown. */
  cost_usd: number | null;
}

/**
 * metrics.json: usage summary of a run.
 *
 * ```
 * { schema_version: 1, run_id: string|null, question: string, mode: string|null,
 *   end_reason: string|null, wall_time_ms: number (ms),
 *   agents: [{ id, anon_id, backend, model, status, answers: number, ...MetricsCountersJson }],
 *   totals: MetricsCountersJson }
 * ```
 * Totals also count events not attributed to a known agent, so they are at least the sum of
 * the agents' figures (equal when every event names an agent).
 */
export interface MetricsJson {
  schema_version: number;
  run_id: string | null;
  question: string;
  mode: CoordinationMode | null;
  end_reason: RunEndReason | null;
  wall_time_ms: number;
  agents: (MetricsCountersJson & {
    id: string;
    anon_id: string;
    backend: string;
    model: string;
    status: AgentStatus;
    answers: number;
  })[];
  totals: MetricsCountersJson;
}

/** The metrics.json object for a state (shape: {@link MetricsJson}). Pure. */
export function toMetricsJson(state: RunState): MetricsJson {
  return {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: state.runId,
    question: state.question,
    mode: state.mode,
    end_reason: state.endReason,
    wall_time_ms: wallTimeMs(state),
    agents: state.agents.map((agent) => ({
      id: agent.id,
      anon_id: agent.anonId,
      backend: agent.backend,
      model: agent.model,
      status: agent.status,
      answers: agent.answerCount,
      ...countersJson(agent.counters),
    })),
    totals: countersJson(state.totals),
  };
}

function countersJson(counters: Counters): MetricsCountersJson {
  const { usage, rounds } = counters;
  const tools: MetricsCountersJson["tools"] = {};
  let toolCalls = 0;
  let toolFailures = 0;
  let toolMs = 0;
  for (const [name, stats] of Object.entries(counters.tools)) {
    tools[name] = {
      calls: stats.calls,
      failures: stats.failures,
      total_ms: stats.totalMs,
      mean_ms: stats.calls === 0 ? 0 : stats.totalMs / stats.calls,
    };
    toolCalls += stats.calls;
    toolFailures += stats.failures;
    toolMs += stats.totalMs;
  }
  let roundTotal = 0;
  for (const count of Object.values(rounds)) roundTotal += count;
  return {
    tokens: {
      input: usage.inputTokens,
      output: usage.outputTokens,
      reasoning: usage.reasoningTokens,
      cached_input: usage.cachedInputTokens,
      total: usage.inputTokens + usage.outputTokens,
    },
    model_calls: usage.modelCalls,
    model_call_ms: usage.modelCallMs,
    time_to_first_token: {
      count: usage.ttftCount,
      total_ms: usage.ttftMsTotal,
      mean_ms: usage.ttftCount === 0 ? null : usage.ttftMsTotal / usage.ttftCount,
    },
    rounds: { ...rounds, total: roundTotal },
    round_ms: counters.roundMs,
    tools,
    tool_calls: toolCalls,
    tool_failures: toolFailures,
    tool_ms: toolMs,
    cost_usd: null,
  };
}

function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
