/**
 * The span tree of one traced run (./run-spans.ts), one function per kind of span: the run's
 * span (`startRun` … `endRun`), a round's (`roundStart` … `roundEnd`), a model call's
 * (`chatSpan`) and a tool call's (`toolSpan`). Each is given the {@link SpanTree} the run's
 * events have built so far and the event, and starts or ends spans at the event's own time.
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
import { costUsdOf, type RunState } from "../session/index.js";
import { redact } from "../redact.js";
import { COST_ATTRIBUTES, GEN_AI, OPERATION, providerName, redactedJson } from "./attributes.js";

/** Where the run's span hangs and what is told before it starts (from `RunSpansOptions`). */
export interface SpanTreeOptions {
  /** The run span's parent: a request span, a caller's remote span, or the root context. */
  parent: Context;
  /** Called just before the run's span starts. */
  beforeRunSpan?: (() => void) | undefined;
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

/** What the spans of one run need between events: the open spans and what their ends will carry. */
export interface SpanTree {
  readonly tracer: Tracer;
  /** Put prompts, answers, reasons, output and tool payloads in the spans. */
  readonly includeContent: boolean;
  readonly options: SpanTreeOptions;
  /** The team, by agent id (from `run-start`). */
  readonly agents: Map<string, AgentInfo>;
  /** Each agent's open round span. */
  readonly rounds: Map<string, OpenRound>;
  /** Retries not yet told, by agent: they go on the next model call or round that ends. */
  readonly retries: Map<string, EventOf<"retry">[]>;
  /** Streamed output since the agent's last model call (only with `includeContent`). */
  readonly output: Map<string, { text: string; reasoning: string }>;
  /** Tool inputs by call id, until the call's result. */
  readonly toolInputs: Map<string, unknown>;
  run: Span | undefined;
  runContext: Context | undefined;
  ended: boolean;
}

/** An empty tree: no span started yet. */
export function newSpanTree(
  tracer: Tracer,
  includeContent: boolean,
  options: SpanTreeOptions,
): SpanTree {
  return {
    tracer,
    includeContent,
    options,
    agents: new Map(),
    rounds: new Map(),
    retries: new Map(),
    output: new Map(),
    toolInputs: new Map(),
    run: undefined,
    runContext: undefined,
    ended: false,
  };
}

/** The event's time, in ms since the epoch. */
export function at(event: CoordEvent): number {
  return Date.parse(event.time);
}

/** Adds `text` (redacted) under `key` when the trace includes content. */
export function content(
  tree: SpanTree,
  attributes: Attributes,
  key: string,
  text: string | undefined,
): Attributes {
  if (tree.includeContent && text !== undefined) attributes[key] = redact(text);
  return attributes;
}

/** The span an event of `agentId` belongs to: its open round, else the run. */
export function spanOf(tree: SpanTree, agentId: string | undefined): Span | undefined {
  return (agentId !== undefined ? tree.rounds.get(agentId)?.span : undefined) ?? tree.run;
}

function contextOf(tree: SpanTree, agentId: string | undefined): Context {
  const round = agentId !== undefined ? tree.rounds.get(agentId) : undefined;
  return round ? trace.setSpan(tree.runContext!, round.span) : tree.runContext!;
}

function modelAttributes(tree: SpanTree, agentId: string | undefined): Attributes {
  const agent = agentId !== undefined ? tree.agents.get(agentId) : undefined;
  if (!agent) return {};
  const provider = providerName(agent.backend);
  return {
    [GEN_AI.providerName]: provider,
    [GEN_AI.system]: provider,
    [GEN_AI.requestModel]: agent.model,
  };
}

/** Puts the agent's untold retries on `span` as `retry` events; returns how many. */
function addRetries(tree: SpanTree, span: Span, agentId: string): number {
  const pending = tree.retries.get(agentId) ?? [];
  for (const retry of pending) {
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
  tree.retries.delete(agentId);
  return pending.length;
}

/** `run-start`: the run's span `invoke_workflow coord` under the parent (once). */
export function startRun(tree: SpanTree, event: EventOf<"run-start">): void {
  if (tree.run !== undefined) return;
  for (const agent of event.agents) tree.agents.set(agent.id, agent);
  tree.options.beforeRunSpan?.();
  tree.run = tree.tracer.startSpan(
    "invoke_workflow coord",
    {
      kind: SpanKind.INTERNAL,
      startTime: at(event),
      attributes: content(
        tree,
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
    tree.options.parent,
  );
  tree.runContext = trace.setSpan(tree.options.parent, tree.run);
}

/**
 * `round-start`: the agent's round span `invoke_agent <id>`; a retried attempt of the open round
 * is an `attempt` event on it, and a round left open by a missing `round-end` is ended here.
 */
export function roundStart(tree: SpanTree, event: EventOf<"round-start">): void {
  const agentId = event.agentId ?? "";
  const open = tree.rounds.get(agentId);
  if (open && open.round === event.round) {
    open.attempts = event.attempt;
    open.span.setAttribute("coord.round.attempts", event.attempt);
    open.span.addEvent("attempt", { "coord.attempt": event.attempt }, at(event));
    return;
  }
  if (open) open.span.end(at(event)); // a round that never said round-end
  const agent = tree.agents.get(agentId);
  const span = tree.tracer.startSpan(
    `${OPERATION.agent} ${agentId}`,
    {
      kind: SpanKind.INTERNAL,
      startTime: at(event),
      attributes: {
        [GEN_AI.operationName]: OPERATION.agent,
        [GEN_AI.agentId]: agentId,
        [GEN_AI.agentName]: agentId,
        ...modelAttributes(tree, agentId),
        ...(agent ? { "coord.agent.anon_id": agent.anonId } : {}),
        "coord.round": event.round,
        "coord.round.kind": event.kind,
        "coord.round.attempts": event.attempt,
        "coord.round.answers_seen": event.answersSeen,
      },
    },
    tree.runContext,
  );
  tree.rounds.set(agentId, { span, round: event.round, attempts: event.attempt });
}

/** `round-end`: ends the agent's round span with its outcome and untold retries (ERROR if it failed). */
export function roundEnd(tree: SpanTree, event: EventOf<"round-end">): void {
  const agentId = event.agentId ?? "";
  const open = tree.rounds.get(agentId);
  if (!open) return;
  tree.rounds.delete(agentId);
  const count = addRetries(tree, open.span, agentId);
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

/** `usage`: one `chat <model>` span over `[time − durationMs, time]` with tokens, cost and output. */
export function chatSpan(tree: SpanTree, event: EventOf<"usage">): void {
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
  const buffer = agentId !== undefined ? tree.output.get(agentId) : undefined;
  if (tree.includeContent && buffer && (buffer.text !== "" || buffer.reasoning !== "")) {
    const parts = [
      ...(buffer.reasoning !== "" ? [{ type: "reasoning", content: buffer.reasoning }] : []),
      ...(buffer.text !== "" ? [{ type: "text", content: buffer.text }] : []),
    ];
    attributes[GEN_AI.outputMessages] = redactedJson([
      { role: "assistant", parts, finish_reason: event.finishReason },
    ]);
  }
  if (agentId !== undefined) tree.output.delete(agentId);
  const span = tree.tracer.startSpan(
    `${OPERATION.chat} ${event.model}`,
    { kind: SpanKind.CLIENT, startTime: end - event.durationMs, attributes },
    contextOf(tree, agentId),
  );
  if (agentId !== undefined) {
    const count = addRetries(tree, span, agentId);
    if (count > 0) span.setAttribute("coord.retries", count);
  }
  span.end(end);
}

/** `tool-result`: one `execute_tool <tool>` span over `[time − durationMs, time]`. */
export function toolSpan(tree: SpanTree, event: EventOf<"tool-result">): void {
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
  if (tree.includeContent) {
    if (tree.toolInputs.has(event.toolCallId))
      attributes[GEN_AI.toolCallArguments] = redactedJson(tree.toolInputs.get(event.toolCallId));
    attributes[GEN_AI.toolCallResult] = redact(event.output);
  }
  tree.toolInputs.delete(event.toolCallId);
  const span = tree.tracer.startSpan(
    `${OPERATION.tool} ${event.toolName}`,
    { kind: SpanKind.INTERNAL, startTime: end - event.durationMs, attributes },
    contextOf(tree, event.agentId),
  );
  if (event.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: "tool error" });
  span.end(end);
}

/** `run-end`: ends open rounds, then the run's span with the run's totals (ERROR unless completed). */
export function endRun(tree: SpanTree, event: EventOf<"run-end">, state: RunState): void {
  const end = at(event);
  for (const [agentId, open] of tree.rounds) {
    addRetries(tree, open.span, agentId);
    open.span.end(end);
  }
  tree.rounds.clear();
  const usage = state.totals.usage;
  const cost = costUsdOf(usage);
  tree.run!.setAttributes({
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
    tree.run!.setStatus({
      code: SpanStatusCode.ERROR,
      message: redact(event.error ?? `run ${event.reason}`),
    });
  }
  tree.run!.end(end);
  tree.ended = true;
}
