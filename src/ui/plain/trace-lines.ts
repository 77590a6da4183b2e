/**
 * Renders the event stream as labelled trace lines, one entry per line: `[system] …`,
 * `[<agent_id>] …`, `[orchestrator] …`; a vote is `[orchestrator] Vote: <voted-for agent_id>
 * (from <voter_id>: <reason>)` (docs/coordination.md "Events", spec section 4.3
 * `reasoning_content`). Streamed text and reasoning are joined per block into one line, written
 * when the block ends (`text-end`, `reasoning-end`), not one line per token; retries and warnings
 * get a line each (a warning once per run). A budget limit reached gets a line, and a degraded
 * run's reasons follow its `run-end` line (`[system] Degraded: …`). A loop's identical lines are
 * shown once and then counted (`./repeat-collapser.ts`).
 *
 * Used by `--no-display` progress on stderr and by the HTTP server's `reasoning_content`.
 */
import type { CoordEvent, EventOf } from "../../events/index.js";
import { createRepeatCollapser } from "./repeat-collapser.js";

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
  /**
   * Show a line identical to one of the last few shown once, then a count
   * (`[system] … repeated 57 more times: …`). Default true.
   */
  collapseRepeats?: boolean;
}

/** Creates a formatter for one run. */
export function createTraceFormatter(options: TraceFormatterOptions = {}): TraceFormatter {
  const formatter = createLineFormatter(options);
  if (options.collapseRepeats === false) return formatter;
  const repeats = createRepeatCollapser();
  return {
    push: (event) => repeats.push(formatter.push(event)),
    flush: () => [...repeats.push(formatter.flush()), ...repeats.flush()],
  };
}

/** {@link createTraceFormatter} without the collapsing of repeated lines. */
function createLineFormatter(options: TraceFormatterOptions): TraceFormatter {
  const includeText = options.includeText ?? true;
  const maxTextLength = options.maxTextLength ?? Infinity;
  // Open text and reasoning blocks by block id, in the order they opened.
  const open = new Map<string, { agentId: string; kind: "text" | "reasoning"; text: string }>();
  const anonToId = new Map<string, string>();
  const warned = new Set<string>();

  const line = (block: { agentId: string; kind: "text" | "reasoning"; text: string }) =>
    !includeText || !block.text.trim()
      ? []
      : [
          `[${block.agentId}] ${block.kind === "reasoning" ? "(reasoning) " : ""}${oneLine(block.text, maxTextLength)}`,
        ];

  /** Closes the open blocks `which` selects, oldest first. */
  const close = (which: (block: { agentId: string }) => boolean): string[] => {
    const lines: string[] = [];
    for (const [blockId, block] of open) {
      if (!which(block)) continue;
      open.delete(blockId);
      lines.push(...line(block));
    }
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
      case "round-start":
        if (event.kind === "final") {
          return [`[orchestrator] ${event.agentId} presents the final answer`];
        }
        if (event.kind === "plan") {
          return [
            `[${event.agentId ?? "orchestrator"}] Planning: ${event.produces ?? "a plan"} for the team`,
          ];
        }
        return [
          `[${event.agentId}] Round ${event.round}${event.attempt > 1 ? ` attempt ${event.attempt}` : ""}` +
            (event.answersSeen.length > 0 ? ` (sees ${event.answersSeen.join(", ")})` : ""),
        ];
      case "tool-call":
        if (WORKFLOW.has(event.toolName)) return [];
        return [
          `[${event.agentId}] Tool call: ${event.toolName} ${oneLine(JSON.stringify(event.input) ?? "", 200)}`,
        ];
      case "tool-result":
        if (WORKFLOW.has(event.toolName)) return [];
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
      case "stop":
        return [
          `[${event.agentId}] Stop (${event.status}${event.cause === "answer-cap" ? ", answer cap" : ""}): ${oneLine(event.summary)}`,
        ];
      case "subtask":
        return [
          `[${event.agentId}] Subtask${event.source === "config" ? "" : ` (${event.source})`}: ${oneLine(event.subtask)}`,
        ];
      case "agent-error":
        return [
          `[orchestrator] ${event.agentId} error${event.status !== undefined ? ` ${event.status}` : ""}${causeText(event.cause)}: ${oneLine(event.message)}${event.fatal ? " (removed from the team)" : ""}`,
        ];
      case "straggler-cut":
        return [`[orchestrator] ${event.agentId} cut: ${oneLine(event.message)}`];
      case "limit-reached":
        return [`[orchestrator] Limit reached: ${oneLine(event.message)}`];
      case "retry":
        return [retryLine(event)];
      case "warning": {
        const key = `${event.source}\n${event.message}`;
        if (warned.has(key)) return [];
        warned.add(key);
        return [`[orchestrator] Warning from ${event.source}: ${oneLine(event.message)}`];
      }
      case "workspace-snapshot":
        return [
          `[${event.agentId}] Workspace snapshot ${event.label}: ${event.files} file${event.files === 1 ? "" : "s"}, ${event.bytes} bytes${event.label.endsWith(".final") ? ` (the result: ${event.workspace})` : ""}`,
        ];
      case "plan": {
        const chunks = new Set(event.tasks.map((task) => task.chunk)).size;
        return [
          `[${event.agentId}] Plan ${event.label}: ${event.tasks.length} task${event.tasks.length === 1 ? "" : "s"}${chunks > 1 ? ` in ${chunks} chunks` : ""} (${oneLine(event.tasks.map((task) => task.id).join(", "), 120)})`,
        ];
      }
      case "broadcast-question":
        return [
          `[${event.agentId}] Asks ${event.to === "human" ? "the user" : "the other agents"} (${event.questionId}): ${oneLine(event.question)}`,
        ];
      case "broadcast-reply":
        return event.from === "human"
          ? [
              `[orchestrator] The user ${event.text === "" ? "gave no answer" : "answered"} ${event.questionId}${event.text === "" ? "" : `: ${oneLine(event.text)}`}`,
            ]
          : [`[${event.from}] Reply to ${event.questionId}: ${oneLine(event.text)}`];
      case "plan-execution": {
        const chunk = event.tasks.filter((task) => task.chunk === event.chunk);
        return [
          `[orchestrator] Plan ${event.planId}, chunk ${event.chunk} of ${event.chunks}: ${chunk.length} task${chunk.length === 1 ? "" : "s"} (${oneLine(chunk.map((task) => task.id).join(", "), 120)})`,
        ];
      }
      case "task-status":
        return [
          `[${event.agentId}] Task ${event.taskId}: ${event.status}${event.notes ? ` (${oneLine(event.notes, 200)})` : ""}`,
        ];
      case "task-added":
        return [
          `[${event.agentId}] Added task ${event.task.id}: ${oneLine(event.task.description, 200)} (why: ${oneLine(event.task.added_reason ?? "", 200)})`,
        ];
      case "persona":
        return [
          `[${event.agentId}] Persona${event.source === "session" ? " (from the session)" : ""}: ${oneLine(event.persona)}`,
        ];
      case "winner":
        if (event.basis === "decomposition")
          return [`[orchestrator] Presenter: ${event.agentId} (integrates every agent's part)`];
        return [
          `[orchestrator] Winner: ${event.agentId} (${event.label}; ${winnerBasis(event)})`,
          ...conclusionGroups(event),
        ];
      case "run-end":
        return [
          `[system] Run ${event.reason}${event.degraded?.length ? " (degraded)" : ""} in ${(event.durationMs / 1000).toFixed(1)} s${event.error ? `: ${event.error}` : ""}`,
          ...(event.degraded ?? []).map((reason) => `[system] Degraded: ${oneLine(reason)}`),
        ];
      case "text-start":
      case "text-delta":
      case "text-end":
      case "reasoning-start":
      case "reasoning-delta":
      case "reasoning-end":
      case "final-start":
      case "final-delta":
      case "final-end":
      case "usage":
      case "round-end":
      case "final-answer":
        return [];
    }
  };

  return {
    push(event) {
      switch (event.type) {
        case "text-start":
        case "reasoning-start":
          return [];
        case "text-delta":
        case "reasoning-delta": {
          const kind = event.type === "text-delta" ? "text" : "reasoning";
          const block = open.get(event.blockId) ?? {
            agentId: event.agentId ?? "?",
            kind,
            text: "",
          };
          block.text += event.text;
          open.set(event.blockId, block);
          return [];
        }
        case "text-end":
        case "reasoning-end": {
          const block = open.get(event.blockId);
          open.delete(event.blockId);
          return block ? line(block) : [];
        }
        default: {
          // Logs of schema v1 have no block ends: any other event of an agent ends its open
          // blocks, and run-end ends them all.
          const lines =
            event.type === "run-end"
              ? close(() => true)
              : event.agentId !== undefined
                ? close((block) => block.agentId === event.agentId)
                : [];
          return [...lines, ...describe(event)];
        }
      }
    },
    flush() {
      return close(() => true);
    },
  };
}

/** The workflow tools' calls are shown as answers and votes, not as tool calls. */
const WORKFLOW = new Set(["new_answer", "vote", "stop", "submit_plan"]);

/** `[orchestrator] <agent>: HTTP 429 (Rate limit reached); retry 1 in 7.0 s`. */
export function retryLine(event: EventOf<"retry">): string {
  const what =
    event.errorKind === "http" && event.status !== undefined
      ? `HTTP ${event.status}`
      : event.errorKind;
  return `[orchestrator] ${event.agentId ?? "?"}: ${what} (${oneLine(event.reason, 200)}); retry ${event.attempt} in ${(event.waitMs / 1000).toFixed(1)} s`;
}

const votesOf = (votes: number) => `${votes} vote${votes === 1 ? "" : "s"}`;

/** The winning answer's conclusion group (docs/coordination.md "How the winner is chosen"). */
function groupOf(event: EventOf<"winner">) {
  return event.groups?.find((group) => group.labels.includes(event.label));
}

/**
 * One line of the answers grouped by conclusion, best first, when the run had more than one group
 * or its one group has a conclusion.
 */
function conclusionGroups(event: EventOf<"winner">): string[] {
  const groups = event.groups ?? [];
  if (groups.length === 0 || (groups.length === 1 && groups[0]!.conclusion === undefined))
    return [];
  const parts = groups.map(
    (group) =>
      `${group.conclusion === undefined ? `(free-form ${group.labels.join(",")})` : oneLine(group.conclusion, 40)}: ${votesOf(group.votes)}, ${group.agents} agent${group.agents === 1 ? "" : "s"}`,
  );
  return [`[orchestrator] Answers by conclusion: ${parts.join(" · ")}`];
}

function winnerBasis(event: EventOf<"winner">): string {
  switch (event.basis) {
    case "votes":
      return `${votesOf(groupOf(event)?.votes ?? event.votes)}${event.tieBroken ? `, tie broken by ${event.tieBasis ?? "config order"}` : ""}`;
    case "timeout":
      return "orchestrator timeout, best so far";
    case "quick":
      return "presenter in quick mode";
    case "partial":
      return `coordination did not complete: chosen from the answers in hand${event.votes > 0 ? ` by ${event.votes} vote${event.votes === 1 ? "" : "s"}` : ""}`;
    case "single":
    case "decomposition":
      return event.basis;
  }
}

/** ` (the model misbehaved)` after an agent error, by its cause; nothing for a provider's. */
function causeText(cause: EventOf<"agent-error">["cause"]): string {
  switch (cause) {
    case "protocol":
      return " (the model misbehaved)";
    case "budget":
      return " (budget)";
    case "context":
      return " (context window)";
    case "provider":
    case undefined:
      return "";
  }
}

/** `calls 40/40`, `tokens 200512/200000`, `cost $0.5100/$0.5000` (no separators: parseable). */
export function limitText(event: Pick<EventOf<"limit-reached">, "limit" | "used" | "max">): string {
  const amount = (value: number) =>
    event.limit === "cost" ? `$${value.toFixed(4)}` : String(Math.round(value));
  return `${event.limit} ${amount(event.used)}/${amount(event.max)}`;
}

/** All trace lines of a finished run, joined with newlines. */
export function traceText(events: Iterable<CoordEvent>, options?: TraceFormatterOptions): string {
  const formatter = createTraceFormatter(options);
  const lines: string[] = [];
  for (const event of events) lines.push(...formatter.push(event));
  lines.push(...formatter.flush());
  return lines.join("\n");
}

/**
 * A run subscriber that writes each completed trace line with `write` (the `--no-display`
 * progress, `coord_debug.log`); text and reasoning blocks still open at `run-end` are flushed.
 */
export function traceSubscriber(
  write: (line: string) => void,
  options?: TraceFormatterOptions,
): (event: CoordEvent) => void {
  const formatter = createTraceFormatter(options);
  return (event) => {
    for (const line of formatter.push(event)) write(line);
  };
}
