/**
 * Renders the event stream as labelled trace lines, one entry per line: `[system] …`,
 * `[<agent_id>] …`, `[orchestrator] …`; a vote is `[orchestrator] Vote: <voted-for agent_id>
 * (from <voter_id>: <reason>)` (COORDINATION.md "Events", spec section 4.3 `reasoning_content`).
 * Streamed deltas are joined per agent and round into one line, not one line per token.
 *
 * Used by `--no-display` progress on stderr and by the HTTP server's `reasoning_content`.
 */
import type { CoordEvent } from "../../events/events.js";

/** Collapses whitespace runs (newlines included) so an entry stays on one line. */
export function oneLine(text: string, maxLength = Infinity): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > maxLength ? `${flat.slice(0, Math.max(0, maxLength - 1))}…` : flat;
}

/** Incremental formatter: feed events, get the lines they complete. */
export interface TraceFormatter {
  /** Lines completed by this event (possibly none: deltas are held until their block ends). */
  push(event: CoordEvent): string[];
  /** Lines still held (open delta blocks). */
  flush(): string[];
}

/** Options of {@link createTraceFormatter}. */
export interface TraceFormatterOptions {
  /** Include the joined text and reasoning of each round. Default true. */
  includeText?: boolean;
  /** Cap on one joined text line (characters). Default no cap. */
  maxTextLength?: number;
}

/** Creates a formatter for one run. */
export function createTraceFormatter(options: TraceFormatterOptions = {}): TraceFormatter {
  const includeText = options.includeText ?? true;
  const maxTextLength = options.maxTextLength ?? Infinity;
  // Open delta blocks per agent: kind → text.
  const open = new Map<string, { reasoning: string; text: string }>();
  const anonToId = new Map<string, string>();

  const close = (agentId: string): string[] => {
    const block = open.get(agentId);
    open.delete(agentId);
    if (!block || !includeText) return [];
    const lines: string[] = [];
    if (block.reasoning.trim())
      lines.push(`[${agentId}] (reasoning) ${oneLine(block.reasoning, maxTextLength)}`);
    if (block.text.trim()) lines.push(`[${agentId}] ${oneLine(block.text, maxTextLength)}`);
    return lines;
  };

  const describe = (event: CoordEvent): string[] => {
    switch (event.type) {
      case "run-start":
        for (const agent of event.agents) anonToId.set(agent.anonId, agent.id);
        return [
          `[system] Question: ${oneLine(event.question)}`,
          `[system] Team (${event.mode}): ${event.agents.map((agent) => `${agent.id} (${agent.backend}/${agent.model})`).join(", ")}`,
        ];
      case "agent-round-start":
        if (event.kind === "final") return [];
        return [
          `[${event.agentId}] Round ${event.round}${event.attempt > 1 ? ` attempt ${event.attempt}` : ""}` +
            (event.answersSeen.length > 0 ? ` (sees ${event.answersSeen.join(", ")})` : ""),
        ];
      case "tool-call":
        if (event.toolName === "new_answer" || event.toolName === "vote") return [];
        return [
          `[${event.agentId}] Tool call: ${event.toolName} ${oneLine(JSON.stringify(event.input) ?? "", 200)}`,
        ];
      case "tool-result":
        if (event.toolName === "new_answer" || event.toolName === "vote") return [];
        return [
          `[${event.agentId}] Tool result: ${event.toolName}${event.isError ? " (error)" : ""} in ${Math.round(event.durationMs)} ms: ${oneLine(event.output, 200)}`,
        ];
      case "answer":
        return [`[${event.agentId}] New answer ${event.label}: ${oneLine(event.content)}`];
      case "vote":
        return [
          `[orchestrator] Vote: ${event.targetAgentId} (from ${event.agentId ?? "?"}: ${oneLine(event.reason) || "no reason given"})`,
        ];
      case "vote-refused":
        return [
          `[orchestrator] Vote from ${event.agentId} for ${anonToId.get(event.targetAnonId) ?? event.targetAnonId} refused: new answers arrived`,
        ];
      case "votes-reset":
        return [
          `[orchestrator] New answer ${event.causeLabel} cleared ${event.cleared} vote${event.cleared === 1 ? "" : "s"}`,
        ];
      case "update-injected":
        return [
          `[orchestrator] Update to ${event.agentId} (${event.via}): ${event.labels.join(", ")}`,
        ];
      case "workflow-invalid":
        return [
          `[orchestrator] Invalid workflow call from ${event.agentId} (attempt ${event.attempt}): ${oneLine(event.message)}`,
        ];
      case "agent-error":
        return [
          `[orchestrator] ${event.agentId} error${event.status !== undefined ? ` ${event.status}` : ""}: ${oneLine(event.message)}${event.fatal ? " (removed from the team)" : ""}`,
        ];
      case "persona":
        return [`[${event.agentId}] Persona: ${oneLine(event.persona)}`];
      case "winner": {
        const how =
          event.basis === "votes"
            ? `${event.votes} vote${event.votes === 1 ? "" : "s"}${event.tieBroken ? ", tie broken by config order" : ""}`
            : event.basis === "timeout"
              ? "orchestrator timeout, best so far"
              : event.basis === "quick"
                ? "presenter in quick mode"
                : event.basis;
        return [`[orchestrator] Winner: ${event.agentId} (${event.label}; ${how})`];
      }
      case "final-start":
        return [`[orchestrator] ${event.agentId} presents the final answer`];
      case "run-end":
        return [
          `[system] Run ${event.reason} in ${(event.durationMs / 1000).toFixed(1)} s${event.error ? `: ${event.error}` : ""}`,
        ];
      default:
        return [];
    }
  };

  return {
    push(event) {
      if (event.type === "text-delta" || event.type === "reasoning-delta") {
        const agentId = event.agentId ?? "?";
        const block = open.get(agentId) ?? { reasoning: "", text: "" };
        if (event.type === "text-delta") block.text += event.text;
        else block.reasoning += event.text;
        open.set(agentId, block);
        return [];
      }
      if (event.type === "final-delta") return [];
      // Any other event of an agent ends its open block; run-end closes them all.
      const lines: string[] = [];
      if (event.type === "run-end")
        for (const agentId of [...open.keys()]) lines.push(...close(agentId));
      else if (event.agentId !== undefined && open.has(event.agentId))
        lines.push(...close(event.agentId));
      lines.push(...describe(event));
      return lines;
    },
    flush() {
      return [...open.keys()].flatMap((agentId) => close(agentId));
    },
  };
}

/** All trace lines of a finished run, joined with newlines. */
export function traceText(events: Iterable<CoordEvent>, options?: TraceFormatterOptions): string {
  const formatter = createTraceFormatter(options);
  const lines: string[] = [];
  for (const event of events) lines.push(...formatter.push(event));
  lines.push(...formatter.flush());
  return lines.join("\n");
}
