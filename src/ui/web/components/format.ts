/**
 * Words and numbers of the page, from the reducer's state (CONTRIBUTING.md rule 3): agent status
 * (the shared wording of src/session/agent-status.ts), token counts, cost (ui/plain's formatCost),
 * durations.
 */
import {
  type AgentState,
  agentStatusText,
  costUsdOf,
  type Counters,
  isWorkOpen,
  type RunState,
} from "../../../session/index.js";
import { formatCost } from "../../plain/number-format.js";

/** The agent's status in words (the one wording of every display; the card shows the round itself). */
export function statusLabel(agent: AgentState, state: RunState): string {
  return agentStatusText(agent, { runOver: state.phase === "done", round: false });
}

/** A CSS modifier for the status pill. */
export function statusTone(agent: AgentState, state: RunState): string {
  if (state.phase === "done" && isWorkOpen(agent.status)) return "muted";
  switch (agent.status) {
    case "thinking":
    case "presenting":
    case "tool":
      return "busy";
    case "answered":
    case "done":
      return "good";
    case "voted":
    case "stopped":
      return "info";
    case "error":
      return "warn";
    case "removed":
      return "bad";
    case "waiting":
      return "muted";
  }
}

/** `1.2k`, `35`, `3.4M`. */
export function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** `$0.0123`, `$0` before any call, or `cost unknown` when a call had no price. */
export function cost(counters: Counters): string {
  const usage = counters.usage;
  if (usage.modelCalls === 0) return "$0";
  const usd = costUsdOf(usage);
  return usd === null ? "cost unknown" : formatCost(usd);
}

/** `850 ms`, `12.3 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `in 1.2k · out 340` (+ reasoning when any). */
export function tokenLine(counters: Counters): string {
  const usage = counters.usage;
  return (
    `${tokens(usage.inputTokens)} in · ${tokens(usage.outputTokens)} out` +
    (usage.reasoningTokens > 0 ? ` · ${tokens(usage.reasoningTokens)} reasoning` : "")
  );
}

/** Workflow tools are shown as the agent's status and votes, not as tool use. */
export const WORKFLOW_TOOLS: ReadonlySet<string> = new Set(["new_answer", "vote", "stop"]);
