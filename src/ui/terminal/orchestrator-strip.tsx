/**
 * The orchestrator strip: `coord · voting · coordinating │ answers 3 │ 12.4 s │ 3.2k tokens │ $0.01`
 * (and provider retries and warnings when there are any), then the vote tally or the winner. Renders only from the reducer's {@link RunState}; `now`
 * drives the elapsed time while the run goes on.
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import { chunkProgress, type RunState, wallTimeMs } from "../../session/index.js";
import { costUsd, formatCost, formatElapsed, formatTokens, totalTokens } from "./format.js";
import { groupRows, VoteTally } from "./vote-tally.js";

const PHASE_TEXT: Record<RunState["phase"], string> = {
  starting: "starting",
  coordinating: "answering and voting",
  presenting: "final answer",
  done: "done",
};

/** Props of {@link OrchestratorStrip}. */
export interface OrchestratorStripProps {
  state: RunState;
  /** Epoch ms, for the elapsed time of a running run. */
  now: number;
  width: number;
}

/** One or two lines: phase and counters, then the tally or winner (when any). */
export function OrchestratorStrip({ state, now, width }: OrchestratorStripProps): ReactElement {
  const elapsed =
    state.phase === "done" || state.startedAt === null
      ? wallTimeMs(state)
      : Math.max(0, now - state.startedAt);
  const cost = costUsd(state.totals);
  const degraded = state.phase === "done" && state.degraded.length > 0;
  const phase =
    state.phase === "done" && state.endReason !== "completed"
      ? (state.endReason ?? "done")
      : degraded
        ? "done, degraded"
        : state.phase === "coordinating" && state.mode === "decomposition"
          ? "working on subtasks"
          : PHASE_TEXT[state.phase];
  const phaseColor =
    state.phase === "done"
      ? state.endReason !== "completed"
        ? "red"
        : degraded
          ? "yellow"
          : "green"
      : "cyan";
  const parts = [
    ...planParts(state),
    `answers ${state.answers.length}`,
    formatElapsed(elapsed),
    `${formatTokens(totalTokens(state.totals))} tokens`,
    ...(cost !== undefined ? [formatCost(cost)] : []),
    ...state.limitsReached
      .filter((limit) => limit.scope === "run")
      .map((limit) => `budget reached: ${limit.limit} ${formatLimit(limit.used, limit.limit)}`),
    // Failed calls beyond the retried ones: requests that failed for good.
    ...(state.totals.usage.failedCalls > state.totals.retries
      ? [
          `${state.totals.usage.failedCalls} failed call${state.totals.usage.failedCalls === 1 ? "" : "s"}`,
        ]
      : []),
    ...(state.totals.retries > 0
      ? [`${state.totals.retries} ${state.totals.retries === 1 ? "retry" : "retries"}`]
      : []),
    ...(state.warnings.length > 0
      ? [`⚠ ${state.warnings.length} warning${state.warnings.length === 1 ? "" : "s"} (coord logs)`]
      : []),
  ];
  const title = (
    <>
      <Text bold>coord</Text>
      <Text dimColor> · {state.mode ?? "…"}</Text>
      {state.historyTurns > 0 ? <Text dimColor> · turn {state.historyTurns + 1}</Text> : null}
      <Text dimColor> · </Text>
      <Text color={phaseColor}>{phase}</Text>
    </>
  );
  const narrow = width < NARROW_COLUMNS;
  return (
    <Box flexDirection="column" width={width}>
      {narrow ? (
        <>
          <Text wrap="truncate">{title}</Text>
          <Text wrap="truncate" dimColor>
            {parts.join(" │ ")}
          </Text>
        </>
      ) : (
        <Text wrap="truncate">
          {title}
          <Text dimColor> │ {parts.join(" │ ")}</Text>
        </Text>
      )}
      <VoteTally state={state} />
      {state.winner === null ? <StopTally state={state} /> : null}
    </Box>
  );
}

/**
 * Planning: `plans 2` (and `questions 1`); execution: `chunk 1/2 · tasks 3/5` (the agent
 * furthest ahead on the chunk).
 */
function planParts(state: RunState): string[] {
  if (state.mode === "planning")
    return [
      `plans ${state.plans.length}`,
      ...(state.questions.length > 0 ? [`questions ${state.questions.length}`] : []),
    ];
  const execution = state.execution;
  if (execution === null) return [];
  const best = state.agents
    .map((agent) => chunkProgress(state, agent.id))
    .filter((progress) => progress !== undefined)
    .sort((a, b) => b.done - a.done)[0];
  return [
    `chunk ${execution.chunk}/${execution.chunks}`,
    ...(best ? [`tasks ${best.done}/${best.total}`] : []),
  ];
}

/** True when the strip has a tally or winner line (votes, or decomposition stops). */
function hasTallyLine(state: RunState): boolean {
  return state.winner !== null || state.votes.length > 0 || stoppedAgents(state).length > 0;
}

function stoppedAgents(state: RunState): RunState["agents"] {
  return state.agents.filter((agent) => agent.stop !== null);
}

/** Decomposition mode: `Stopped 1/3  alice ✓ complete  bob ✗ blocked`; null before any stop. */
function StopTally({ state }: { state: RunState }): ReactElement | null {
  const stopped = stoppedAgents(state);
  if (stopped.length === 0) return null;
  const live = state.agents.filter((agent) => agent.status !== "removed").length;
  return (
    <Text wrap="truncate">
      <Text bold>
        Stopped {stopped.length}/{live}{" "}
      </Text>
      {stopped.map((agent) => (
        <Text key={agent.id}>
          {" "}
          {agent.id}{" "}
          <Text color={agent.stop!.status === "complete" ? "blue" : "red"}>
            {agent.stop!.status === "complete" ? "✓" : "✗"} {agent.stop!.status}
          </Text>
        </Text>
      ))}
    </Text>
  );
}

/** Terminal columns below which the counters get their own line. */
const NARROW_COLUMNS = 72;

/**
 * Rows the strip takes at `width`: the title (and counters), plus the tally or winner and the
 * winner's conclusion groups.
 */
export function stripRows(state: RunState, width: number): number {
  return (width < NARROW_COLUMNS ? 2 : 1) + (hasTallyLine(state) ? 1 : 0) + groupRows(state);
}

/** A budget amount: USD for cost, else a count. */
function formatLimit(value: number, limit: RunState["limitsReached"][number]["limit"]): string {
  return limit === "cost" ? formatCost(value) : String(Math.round(value));
}
