/**
 * One run's events as an OpenTelemetry span tree (docs/tracing.md "Spans"): a subscriber of the
 * live run (src/session/live-run.ts) that starts and ends spans with the events' own timestamps,
 * so every span matches the run log to the millisecond:
 *
 * ```
 * invoke_workflow coord              run-start … run-end
 * ├── invoke_agent <agent id>        round-start (attempt 1) … round-end; one per round
 * │   ├── chat <model>               one per `usage` event: [time − durationMs, time]
 * │   └── execute_tool <tool>        one per `tool-result`: [time − durationMs, time]
 * └── …
 * ```
 *
 * Votes, answers, refusals, updates, invalid workflow calls and warnings are span events on the
 * round they happened in (./span-events.ts), retries on the model call they delayed; the winner,
 * reset votes and personas on the run's span; agent errors are `exception` events, and a round
 * or run that ended badly has status ERROR. The spans themselves are built in ./span-tree.ts; this
 * module routes each event to them.
 */
import { type Context, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { CoordEvent, EventOf } from "../events/index.js";
import type { RunState, RunSubscriber } from "../session/index.js";
import { redact } from "../redact.js";
import { spanEventFor } from "./span-events.js";
import {
  at,
  chatSpan,
  content,
  endRun,
  newSpanTree,
  roundEnd,
  roundStart,
  type SpanTree,
  spanOf,
  startRun,
  toolSpan,
} from "./span-tree.js";

/** Options of {@link createRunSpans}. */
export interface RunSpansOptions {
  tracer: Tracer;
  /** The run span's parent: a request span, a caller's remote span, or the root context. */
  parent: Context;
  /** Put prompts, answers, reasons, output and tool payloads in the spans. */
  includeContent: boolean;
  /** Called just before the run's span starts (the tracing session then hands out its id). */
  beforeRunSpan?: () => void;
}

/** A run being traced. */
export interface RunSpans {
  /** Feed it every event of the run (catching up from the start is fine). Never throws. */
  readonly subscriber: RunSubscriber;
  /** True once `run-end` (or {@link RunSpans.abandon}) ended the run's span. */
  readonly ended: boolean;
  /**
   * Ends every span still open at `timeMs` with status ERROR and `message` (a run whose stream
   * stopped without `run-end`, a process shutting down). Idempotent.
   */
  abandon(timeMs: number, message: string): void;
}

/**
 * Creates the span builder of one run.
 * @param onError told once when building a span fails (the subscriber then stops tracing).
 */
export function createRunSpans(
  options: RunSpansOptions,
  onError: (error: unknown) => void,
): RunSpans {
  const tree = newSpanTree(options.tracer, options.includeContent, options);
  let failed = false;
  return {
    subscriber(event, state) {
      if (failed) return;
      try {
        handle(tree, event, state);
      } catch (error) {
        failed = true;
        onError(error);
      }
    },
    get ended() {
      return tree.ended;
    },
    abandon(timeMs, message) {
      if (tree.ended || tree.run === undefined) return;
      for (const open of tree.rounds.values()) open.span.end(timeMs);
      tree.rounds.clear();
      tree.run.setStatus({ code: SpanStatusCode.ERROR, message });
      tree.run.end(timeMs);
      tree.ended = true;
    },
  };
}

/** One event: its span event (if any) on its round or the run, then the span it starts or ends. */
function handle(tree: SpanTree, event: CoordEvent, state: RunState): void {
  if (event.type === "run-start") {
    startRun(tree, event);
    return;
  }
  const run = tree.run;
  if (run === undefined || tree.ended) return;
  const agentId = event.agentId;
  const spanEvent = spanEventFor(event, tree.includeContent);
  if (spanEvent) {
    const span = spanEvent.on === "run" ? run : spanOf(tree, agentId);
    span?.addEvent(spanEvent.name, spanEvent.attributes, at(event));
  }
  switch (event.type) {
    case "round-start":
      roundStart(tree, event);
      break;
    case "text-delta":
    case "reasoning-delta":
    case "final-delta":
      bufferOutput(tree, event);
      break;
    case "tool-call":
      tree.toolInputs.set(event.toolCallId, event.input);
      break;
    case "tool-result":
      toolSpan(tree, event);
      break;
    case "usage":
      chatSpan(tree, event);
      break;
    case "retry":
      if (agentId !== undefined)
        tree.retries.set(agentId, [...(tree.retries.get(agentId) ?? []), event]);
      break;
    case "round-end":
      roundEnd(tree, event);
      break;
    case "agent-error":
      if (event.fatal)
        spanOf(tree, agentId)?.setStatus({
          code: SpanStatusCode.ERROR,
          message: redact(event.message),
        });
      break;
    case "winner":
      run.setAttributes({
        "coord.winner.agent_id": agentId ?? "",
        "coord.winner.label": event.label,
        "coord.winner.votes": event.votes,
        "coord.winner.basis": event.basis,
      });
      break;
    case "final-answer":
      run.setAttributes(
        content(
          tree,
          { "coord.final_answer.label": event.label, "coord.final_answer.source": event.source },
          "coord.final_answer",
          event.content,
        ),
      );
      break;
    case "run-end":
      endRun(tree, event, state);
      break;
    default:
      // Span events (above), block boundaries, and types a newer engine adds: no span.
      break;
  }
}

/** Streamed output, kept (with content on) for the agent's next `chat` span. */
function bufferOutput(
  tree: SpanTree,
  event: EventOf<"text-delta" | "reasoning-delta" | "final-delta">,
): void {
  if (!tree.includeContent || event.agentId === undefined) return;
  const buffer = tree.output.get(event.agentId) ?? { text: "", reasoning: "" };
  if (event.type === "reasoning-delta") buffer.reasoning += event.text;
  else buffer.text += event.text;
  tree.output.set(event.agentId, buffer);
}
