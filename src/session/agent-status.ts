/**
 * An agent's status in words, the one wording every display shows (the terminal's panels and
 * rows, the viewer, the browser page's cards): `thinking · round 2`, `using read_file`,
 * `answered agent2.1`, `voted for alice`, `error: 429 rate limited (retrying)`, … Pure: a
 * function of the reducer's {@link AgentState}, usable by the browser page (no Node modules).
 */
import type { AgentState, AgentStatus } from "./run-state.js";

/** Statuses of an agent whose work is still open: once the run is over they read `stopped`. */
const OPEN_STATUSES: ReadonlySet<AgentStatus> = new Set([
  "waiting",
  "thinking",
  "tool",
  "presenting",
]);

/** Longest error message shown in a status, characters (longer ones end with `…`). */
const MESSAGE_CHARS = 80;

/** Options of {@link agentStatusText}. */
export interface StatusTextOptions {
  /** The run is over: work still open reads `stopped` (with the last answer, when any). */
  runOver?: boolean;
  /**
   * Add ` · round N` to thinking and tool use from round 2 on. Default true; a display that
   * shows the round elsewhere (the page's card) turns it off.
   */
  round?: boolean;
}

/** True when the agent's work was still open (waiting, thinking, using a tool, presenting). */
export function isWorkOpen(status: AgentStatus): boolean {
  return OPEN_STATUSES.has(status);
}

/** The agent's status in words (see the module comment for the forms). */
export function agentStatusText(agent: AgentState, options: StatusTextOptions = {}): string {
  if (options.runOver && isWorkOpen(agent.status))
    return agent.currentAnswerLabel
      ? `stopped (last answer ${agent.currentAnswerLabel})`
      : "stopped";
  const round = options.round !== false && agent.round > 1 ? ` · round ${agent.round}` : "";
  switch (agent.status) {
    case "waiting":
      return agent.round === 0 ? "waiting" : "waiting for the others";
    case "thinking":
      if (agent.roundKind === "final") return "writing the final answer";
      if (agent.roundKind === "plan") return "planning for the team";
      return `thinking${round}`;
    case "tool":
      return `using ${agent.activeTool ?? "a tool"}${round}`;
    case "answered":
      return agent.currentAnswerLabel ? `answered ${agent.currentAnswerLabel}` : "answered";
    case "voted":
      return agent.vote ? `voted for ${agent.vote.targetAgentId}` : "voted";
    case "stopped":
      return agent.stop ? `stopped (${agent.stop.status})` : "stopped";
    case "error":
      return `error: ${shortMessage(agent.lastError?.message ?? "unknown")} (retrying)`;
    case "removed":
      return `removed: ${shortMessage(agent.lastError?.message ?? "failed")}`;
    case "presenting":
      return "writing the final answer";
    case "done":
      return agent.roundKind === "final" ? "wrote the final answer" : "done";
  }
}

/** The message on one line, cut to {@link MESSAGE_CHARS} characters. */
function shortMessage(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS - 1)}…` : flat;
}
