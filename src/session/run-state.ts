/**
 * The view model the reducer builds (CONTRIBUTING.md rule 3): {@link RunState} with one
 * {@link AgentState} per agent, the state before any event, and the run's wall time.
 *
 * Units: `*At` fields are milliseconds since the Unix epoch (parsed from event `time`), `*Ms`
 * fields are milliseconds, token counts are tokens.
 */
import type { CoordinationMode, EventOf, RunEndReason } from "../events/index.js";
import { ZERO_COUNTERS, type Counters } from "./counters.js";
import { INITIAL_PLAN_STATE, type PlanState } from "./plan-state.js";

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
  /**
   * What failed (`agent-error.cause`): the provider, the model's use of the protocol, a per-agent
   * budget limit, or the context window. Absent for logs written before it existed (a provider).
   */
  readonly cause?: EventOf<"agent-error">["cause"];
  readonly round: number;
  readonly time: number;
}

/** A budget limit that was reached (`limit-reached`), in the order reached. */
export interface LimitRecord {
  /** `run`: the run ended on it; `agent`: that agent was removed. */
  readonly scope: EventOf<"limit-reached">["scope"];
  readonly limit: EventOf<"limit-reached">["limit"];
  /** In the limit's unit: model calls, tokens (input + output) or USD. */
  readonly used: number;
  readonly max: number;
  /** The agent of a per-agent limit; null for the run's. */
  readonly agentId: string | null;
  readonly message: string;
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
  /** Decomposition mode: the subtask the agent owns and where it came from. */
  readonly subtask: {
    readonly text: string;
    readonly source: EventOf<"subtask">["source"];
  } | null;
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
  /** What broke a tie of the conclusion groups; null without a tie or in logs from before it. */
  readonly tieBasis: NonNullable<EventOf<"winner">["tieBasis"]> | null;
  /** The winning answer's normalised conclusion (`18`, `B`); null for a free-form answer. */
  readonly conclusion: string | null;
  /** The answers grouped by conclusion, best first (voting mode); [] when the event had none. */
  readonly groups: readonly WinnerGroup[];
}

/** One conclusion group of the `winner` event, its agents named (`./winner-view.ts`). */
export interface WinnerGroup {
  /** Null for a free-form answer (a group of its own). */
  readonly conclusion: string | null;
  /** Labels of its answers, superseded ones included, in the order accepted. */
  readonly labels: readonly string[];
  /** Real ids of the agents whose answers are in it (the anonymous id when unknown). */
  readonly agentIds: readonly string[];
  /** Current votes for any of its answers. */
  readonly votes: number;
  /** Agents that gave an answer in it, and how many of them with their first answer. */
  readonly agents: number;
  readonly firstAnswers: number;
  /** True for the winner's group. */
  readonly won: boolean;
}

/** A distinct warning of the run (`warning` events, the same source and message once). */
export interface WarningRecord {
  readonly source: string;
  readonly message: string;
  /** The agent whose model call it came from, if any. */
  readonly agentId: string | null;
  /** How many times it was reported. */
  readonly count: number;
}

/** A workspace snapshot (`workspace-snapshot` events), in the order taken. */
export interface SnapshotRecord {
  readonly agentId: string;
  /** `agent<N>.<M>`, or `agent<N>.final` for the run's result. */
  readonly label: string;
  readonly workspace: string;
  readonly files: number;
  readonly bytes: number;
  /** Relative to the attempt directory; null without a log. */
  readonly logPath: string | null;
}

/**
 * The view model of one run. Build it with {@link initialRunState} and {@link reduceRun}. The
 * planning and execution fields come from {@link PlanState} (`./plan-state.ts`).
 */
export interface RunState extends PlanState {
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
  /**
   * Why the run's answer (or its failure) is degraded, one line per reason (`run-end.degraded`):
   * empty for a clean run and before `run-end`.
   */
  readonly degraded: readonly string[];
  /** Budget limits reached (`limit-reached`), oldest first. */
  readonly limitsReached: readonly LimitRecord[];
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
  /** Distinct warnings, oldest first. */
  readonly warnings: readonly WarningRecord[];
  /** Workspace snapshots, oldest first. */
  readonly snapshots: readonly SnapshotRecord[];
}

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
    degraded: [],
    limitsReached: [],
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
    warnings: [],
    snapshots: [],
    ...INITIAL_PLAN_STATE,
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
