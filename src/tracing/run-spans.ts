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
 * or run that ended badly has status ERROR.
 */
import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { CoordEvent, EventOf } from "../events/index.js";
import { costUsdOf, type RunState, type RunSubscriber } from "../session/index.js";
import { redact } from "../redact.js";
import { spanEventFor } from "./span-events.js";
import { COST_ATTRIBUTES, GEN_AI, OPERATION, providerName, redactedJson } from "./attributes.js";

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

interface AgentInfo {
  anonId: string;
  backend: string;
  model: string;
}

interface OpenRound {
  span: Span;
  round: number;
  attempts: number;
}

/**
 * Creates the span builder of one run.
 * @param onError told once when building a span fails (the subscriber then stops tracing).
 */
export function createRunSpans(
  options: RunSpansOptions,
  onError: (error: unknown) => void,
): RunSpans {
  const { tracer, includeContent } = options;
  const agents = new Map<string, AgentInfo>();
  const rounds = new Map<string, OpenRound>();
  const retries = new Map<string, EventOf<"retry">[]>();
  const output = new Map<string, { text: string; reasoning: string }>();
  const toolInputs = new Map<string, unknown>();
  let run: Span | undefined;
  let runContext: Context | undefined;
  let ended = false;
  let failed = false;

  const at = (event: CoordEvent) => Date.parse(event.time);
  const content = (attributes: Attributes, key: string, text: string | undefined) => {
    if (includeContent && text !== undefined) attributes[key] = redact(text);
    return attributes;
  };
  /** The span an event of `agentId` belongs to: its open round, else the run. */
  const spanOf = (agentId: string | undefined): Span | undefined =>
    (agentId !== undefined ? rounds.get(agentId)?.span : undefined) ?? run;
  const contextOf = (agentId: string | undefined): Context => {
    const round = agentId !== undefined ? rounds.get(agentId) : undefined;
    return round ? trace.setSpan(runContext!, round.span) : runContext!;
  };
  const modelAttributes = (agentId: string | undefined): Attributes => {
    const agent = agentId !== undefined ? agents.get(agentId) : undefined;
    if (!agent) return {};
    const provider = providerName(agent.backend);
    return {
      [GEN_AI.providerName]: provider,
      [GEN_AI.system]: provider,
      [GEN_AI.requestModel]: agent.model,
    };
  };
  const addRetries = (span: Span, agentId: string) => {
    for (const retry of retries.get(agentId) ?? []) {
      span.addEvent(
        "retry",
        {
          "coord.retry.attempt": retry.attempt,
          "coord.retry.wait_ms": retry.waitMs,
          "coord.retry.error_kind": retry.errorKind,
          "coord.retry.reason": redact(retry.reason),
          ...(retry.status !== undefined ? { "http.response.status_code": retry.status } : {}),
        },
        at(retry),
      );
    }
    const count = retries.get(agentId)?.length ?? 0;
    retries.delete(agentId);
    return count;
  };

  function handle(event: CoordEvent, state: RunState): void {
    if (event.type === "run-start") {
      startRun(event);
      return;
    }
    if (run === undefined || ended) return;
    const agentId = event.agentId;
    const spanEvent = spanEventFor(event, includeContent);
    if (spanEvent) {
      const span = spanEvent.on === "run" ? run : spanOf(agentId);
      span?.addEvent(spanEvent.name, spanEvent.attributes, at(event));
    }
    switch (event.type) {
      case "round-start":
        roundStart(event);
        break;
      case "text-delta":
      case "reasoning-delta":
      case "final-delta": {
        if (!includeContent || agentId === undefined) break;
        const buffer = output.get(agentId) ?? { text: "", reasoning: "" };
        if (event.type === "reasoning-delta") buffer.reasoning += event.text;
        else buffer.text += event.text;
        output.set(agentId, buffer);
        break;
      }
      case "tool-call":
        toolInputs.set(event.toolCallId, event.input);
        break;
      case "tool-result":
        toolSpan(event);
        break;
      case "usage":
        chatSpan(event);
        break;
      case "retry":
        if (agentId !== undefined) retries.set(agentId, [...(retries.get(agentId) ?? []), event]);
        break;
      case "round-end":
        roundEnd(event);
        break;
      case "agent-error":
        if (event.fatal) {
          spanOf(agentId)?.setStatus({
            code: SpanStatusCode.ERROR,
            message: redact(event.message),
          });
        }
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
            { "coord.final_answer.label": event.label, "coord.final_answer.source": event.source },
            "coord.final_answer",
            event.content,
          ),
        );
        break;
      case "run-end":
        endRun(event, state);
        break;
      default:
        // Span events (above), block boundaries, and types a newer engine adds: no span.
        break;
    }
  }

  function startRun(event: EventOf<"run-start">): void {
    if (run !== undefined) return;
    for (const agent of event.agents) agents.set(agent.id, agent);
    options.beforeRunSpan?.();
    run = tracer.startSpan(
      "invoke_workflow coord",
      {
        kind: SpanKind.INTERNAL,
        startTime: at(event),
        attributes: content(
          {
            [GEN_AI.operationName]: OPERATION.workflow,
            [GEN_AI.workflowName]: "coord",
            [GEN_AI.conversationId]: event.runId,
            "coord.run_id": event.runId,
            "coord.mode": event.mode,
            "coord.agents": event.agents.map((agent) => agent.id),
            "coord.history_turns": event.historyTurns,
          },
          "coord.question",
          event.question,
        ),
      },
      options.parent,
    );
    runContext = trace.setSpan(options.parent, run);
  }

  function roundStart(event: EventOf<"round-start">): void {
    const agentId = event.agentId ?? "";
    const open = rounds.get(agentId);
    if (open && open.round === event.round) {
      open.attempts = event.attempt;
      open.span.setAttribute("coord.round.attempts", event.attempt);
      open.span.addEvent("attempt", { "coord.attempt": event.attempt }, at(event));
      return;
    }
    if (open) open.span.end(at(event)); // a round that never said round-end
    const agent = agents.get(agentId);
    const span = tracer.startSpan(
      `${OPERATION.agent} ${agentId}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: at(event),
        attributes: {
          [GEN_AI.operationName]: OPERATION.agent,
          [GEN_AI.agentId]: agentId,
          [GEN_AI.agentName]: agentId,
          ...modelAttributes(agentId),
          ...(agent ? { "coord.agent.anon_id": agent.anonId } : {}),
          "coord.round": event.round,
          "coord.round.kind": event.kind,
          "coord.round.attempts": event.attempt,
          "coord.round.answers_seen": event.answersSeen,
        },
      },
      runContext,
    );
    rounds.set(agentId, { span, round: event.round, attempts: event.attempt });
  }

  function roundEnd(event: EventOf<"round-end">): void {
    const agentId = event.agentId ?? "";
    const open = rounds.get(agentId);
    if (!open) return;
    rounds.delete(agentId);
    const count = addRetries(open.span, agentId);
    if (count > 0) open.span.setAttribute("coord.retries", count);
    open.span.setAttributes({
      "coord.round.outcome": event.outcome,
      "coord.round.duration_ms": event.durationMs,
    });
    if (event.outcome === "error" || event.outcome === "invalid") {
      open.span.setStatus({ code: SpanStatusCode.ERROR, message: `round ended: ${event.outcome}` });
    }
    open.span.end(at(event));
  }

  function chatSpan(event: EventOf<"usage">): void {
    const agentId = event.agentId;
    const end = at(event);
    const provider = providerName(event.backend);
    const attributes: Attributes = {
      [GEN_AI.operationName]: OPERATION.chat,
      [GEN_AI.providerName]: provider,
      [GEN_AI.system]: provider,
      [GEN_AI.requestModel]: event.model,
      [GEN_AI.inputTokens]: event.usage.inputTokens,
      [GEN_AI.outputTokens]: event.usage.outputTokens,
      [GEN_AI.reasoningTokens]: event.usage.reasoningTokens,
      [GEN_AI.cacheReadInputTokens]: event.usage.cachedInputTokens,
      [GEN_AI.responseFinishReasons]: [event.finishReason],
      "coord.backend": event.backend,
      "coord.round": event.round,
      "coord.duration_ms": event.durationMs,
      ...(agentId !== undefined ? { "coord.agent.id": agentId } : {}),
    };
    if (event.timeToFirstTokenMs !== undefined)
      attributes[GEN_AI.responseTimeToFirstChunk] = event.timeToFirstTokenMs / 1000;
    if (event.costUsd !== undefined)
      for (const key of COST_ATTRIBUTES) attributes[key] = event.costUsd;
    const buffer = agentId !== undefined ? output.get(agentId) : undefined;
    if (includeContent && buffer && (buffer.text !== "" || buffer.reasoning !== "")) {
      const parts = [
        ...(buffer.reasoning !== "" ? [{ type: "reasoning", content: buffer.reasoning }] : []),
        ...(buffer.text !== "" ? [{ type: "text", content: buffer.text }] : []),
      ];
      attributes[GEN_AI.outputMessages] = redactedJson([
        { role: "assistant", parts, finish_reason: event.finishReason },
      ]);
    }
    if (agentId !== undefined) output.delete(agentId);
    const span = tracer.startSpan(
      `${OPERATION.chat} ${event.model}`,
      { kind: SpanKind.CLIENT, startTime: end - event.durationMs, attributes },
      contextOf(agentId),
    );
    if (agentId !== undefined) {
      const count = addRetries(span, agentId);
      if (count > 0) span.setAttribute("coord.retries", count);
    }
    span.end(end);
  }

  function toolSpan(event: EventOf<"tool-result">): void {
    const end = at(event);
    const attributes: Attributes = {
      [GEN_AI.operationName]: OPERATION.tool,
      [GEN_AI.toolName]: event.toolName,
      [GEN_AI.toolCallId]: event.toolCallId,
      [GEN_AI.toolType]: "function",
      "coord.round": event.round,
      "coord.duration_ms": event.durationMs,
      ...(event.agentId !== undefined ? { "coord.agent.id": event.agentId } : {}),
    };
    if (includeContent) {
      if (toolInputs.has(event.toolCallId))
        attributes[GEN_AI.toolCallArguments] = redactedJson(toolInputs.get(event.toolCallId));
      attributes[GEN_AI.toolCallResult] = redact(event.output);
    }
    toolInputs.delete(event.toolCallId);
    const span = tracer.startSpan(
      `${OPERATION.tool} ${event.toolName}`,
      { kind: SpanKind.INTERNAL, startTime: end - event.durationMs, attributes },
      contextOf(event.agentId),
    );
    if (event.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: "tool error" });
    span.end(end);
  }

  function endRun(event: EventOf<"run-end">, state: RunState): void {
    const end = at(event);
    for (const [agentId, open] of rounds) {
      addRetries(open.span, agentId);
      open.span.end(end);
    }
    rounds.clear();
    const usage = state.totals.usage;
    const cost = costUsdOf(usage);
    run!.setAttributes({
      "coord.end_reason": event.reason,
      "coord.duration_ms": event.durationMs,
      "coord.usage.input_tokens": usage.inputTokens,
      "coord.usage.output_tokens": usage.outputTokens,
      "coord.usage.reasoning_tokens": usage.reasoningTokens,
      "coord.usage.cached_input_tokens": usage.cachedInputTokens,
      "coord.model_calls": usage.modelCalls,
      ...(cost !== null ? { "coord.cost_usd": cost } : {}),
    });
    if (event.reason !== "completed") {
      run!.setStatus({
        code: SpanStatusCode.ERROR,
        message: redact(event.error ?? `run ${event.reason}`),
      });
    }
    run!.end(end);
    ended = true;
  }

  return {
    subscriber(event, state) {
      if (failed) return;
      try {
        handle(event, state);
      } catch (error) {
        failed = true;
        onError(error);
      }
    },
    get ended() {
      return ended;
    },
    abandon(timeMs, message) {
      if (ended || run === undefined) return;
      for (const open of rounds.values()) open.span.end(timeMs);
      rounds.clear();
      run.setStatus({ code: SpanStatusCode.ERROR, message });
      run.end(timeMs);
      ended = true;
    },
  };
}
