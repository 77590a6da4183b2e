/**
 * Text helpers of the terminal UI: status colours and marks, times, token counts, and the tail of
 * streamed text cut to a panel (the status words are session's agentStatusText; costs are
 * ui/plain's formatCost). Pure functions of the reducer's state (CONTRIBUTING.md rule 3).
 */
import { type AgentState, costUsdOf, type Counters, type RunState } from "../../session/index.js";
import { formatCost, oneLine } from "../plain/index.js";

/** Workflow tools: shown as the agent's status, not in its tool list. */
const WORKFLOW_TOOLS = new Set(["new_answer", "vote", "stop"]);

/** Ink colour of a status. */
export function statusColor(status: AgentState["status"]): string {
  switch (status) {
    case "thinking":
    case "presenting":
      return "cyan";
    case "tool":
      return "yellow";
    case "answered":
    case "done":
      return "green";
    case "voted":
    case "stopped":
      return "blue";
    case "error":
    case "removed":
      return "red";
    case "waiting":
      return "gray";
  }
}

/** A one-character mark: a spinner frame while busy, ✓, ✗ or ·. */
export function statusMark(status: AgentState["status"], frame: number): string {
  if (status === "thinking" || status === "tool" || status === "presenting")
    return SPINNER[frame % SPINNER.length]!;
  if (status === "error" || status === "removed") return "✗";
  if (status === "waiting") return "·";
  return "✓";
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** `12.3 s`, `4 min 05 s`. @param ms milliseconds. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
}

/** `950`, `12.3k`, `1.2M` tokens. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** Input + output tokens of some counters. */
export function totalTokens(counters: Counters): number {
  return counters.usage.inputTokens + counters.usage.outputTokens;
}

/**
 * The cost in USD of some counters; undefined when unknown (some call had no price) or when no
 * model call was made yet.
 */
export function costUsd(counters: Counters): number | undefined {
  if (counters.usage.modelCalls === 0) return undefined;
  return costUsdOf(counters.usage) ?? undefined;
}

/** Non-workflow tools the agent called, `read_file×2, search`, in first-use order. */
export function toolSummary(agent: AgentState): string {
  return Object.entries(agent.counters.tools)
    .filter(([name]) => !WORKFLOW_TOOLS.has(name))
    .map(([name, stats]) => (stats.calls > 1 ? `${name}×${stats.calls}` : name))
    .join(", ");
}

export { formatCost, oneLine };

/**
 * The last `count` lines of `text` wrapped at `width` columns (one column per code point; blank
 * lines dropped): what fits in a panel of that size.
 */
export function tailLines(text: string, width: number, count: number): string[] {
  if (count <= 0 || width <= 0) return [];
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+$/u, "").replace(/\t/g, "  ");
    if (line.trim() === "") continue;
    lines.push(...wrapLine(line, width));
  }
  return lines.slice(-count);
}

/** Word-wraps one line at `width` code points (a word longer than the width is split). */
export function wrapLine(line: string, width: number): string[] {
  const out: string[] = [];
  let rest = [...line];
  while (rest.length > width) {
    let cut = rest.lastIndexOf(" ", width);
    if (cut <= 0) cut = width;
    out.push(rest.slice(0, cut).join("").trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === " ") rest = rest.slice(1);
  }
  if (rest.length > 0) out.push(rest.join(""));
  return out;
}

/** Votes per real agent id on the current answer set, most first (ties in config order). */
export function voteTally(state: RunState): Array<{ agentId: string; votes: number }> {
  const counts = new Map<string, number>();
  for (const vote of state.votes)
    counts.set(vote.targetAgentId, (counts.get(vote.targetAgentId) ?? 0) + 1);
  const order = new Map(state.agents.map((agent, index) => [agent.id, index]));
  return [...counts.entries()]
    .map(([agentId, votes]) => ({ agentId, votes }))
    .sort((a, b) => b.votes - a.votes || (order.get(a.agentId) ?? 0) - (order.get(b.agentId) ?? 0));
}

/** Agents still in the team (not removed). */
export function liveAgents(state: RunState): number {
  return state.agents.filter((agent) => agent.status !== "removed").length;
}
