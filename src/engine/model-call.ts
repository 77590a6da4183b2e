/**
 * One model call of one agent: streams the backend's chunks into events (`text-delta` or
 * `final-delta`, `reasoning-delta`, and `tool-call`/`tool-result` for tools the provider ran
 * itself) and ends with a `usage` event carrying the call's tokens, cost in USD (when the
 * backend is priced), wall time and time to first token (ms).
 */
import type { Backend, ModelRequest, ToolCall, Usage } from "../backends/backend.js";
import { emptyUsage } from "../backends/backend.js";
import type { Clock } from "../clock.js";
import type { Emitter } from "./emitter.js";

/** What one model call produced. */
export interface ModelReply {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: Usage;
  /** Cost in USD, when the backend is priced (the `withPricing` wrapper). */
  costUsd?: number;
}

/** Options of {@link callModel}. */
export interface ModelCallOptions {
  agentId: string;
  backend: Backend;
  request: ModelRequest;
  round: number;
  emitter: Emitter;
  clock: Clock;
  signal: AbortSignal;
  /** `final`: text streams as `final-delta` (the presentation); default `text-delta`. */
  textAs?: "text" | "final";
}

/**
 * Performs the call and emits its events.
 * @throws whatever the backend throws (BackendError, AbortError); a `usage` event is emitted only
 *   for calls that finished.
 */
export async function callModel(options: ModelCallOptions): Promise<ModelReply> {
  const { agentId, round, emitter, clock } = options;
  const started = clock.now();
  let firstChunkAt: number | undefined;
  const reply: ModelReply = {
    text: "",
    reasoning: "",
    toolCalls: [],
    finishReason: "other",
    usage: emptyUsage(),
  };
  const providerCallStarted = new Map<string, number>();
  for await (const chunk of options.backend.stream(options.request, { signal: options.signal })) {
    firstChunkAt ??= clock.now();
    switch (chunk.type) {
      case "text-delta":
        reply.text += chunk.text;
        if (options.textAs === "final")
          emitter.emit({ type: "final-delta", agentId, text: chunk.text });
        else emitter.emit({ type: "text-delta", agentId, round, text: chunk.text });
        break;
      case "reasoning-delta":
        reply.reasoning += chunk.text;
        emitter.emit({ type: "reasoning-delta", agentId, round, text: chunk.text });
        break;
      case "tool-call":
        reply.toolCalls.push({
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          input: chunk.input,
        });
        break;
      case "provider-tool-call":
        // Run by the provider (web search, code execution): logged, never executed here and never
        // a workflow call.
        providerCallStarted.set(chunk.toolCallId, clock.now());
        emitter.emit({
          type: "tool-call",
          agentId,
          round,
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          input: chunk.input,
        });
        break;
      case "provider-tool-result":
        emitter.emit({
          type: "tool-result",
          agentId,
          round,
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          output:
            typeof chunk.output === "string" ? chunk.output : (JSON.stringify(chunk.output) ?? ""),
          isError: chunk.isError,
          durationMs: clock.now() - (providerCallStarted.get(chunk.toolCallId) ?? clock.now()),
        });
        break;
      case "finish":
        reply.finishReason = chunk.finishReason;
        reply.usage = chunk.usage;
        if (chunk.costUsd !== undefined) reply.costUsd = chunk.costUsd;
        break;
    }
  }
  const finished = clock.now();
  emitter.emit({
    type: "usage",
    agentId,
    round,
    backend: options.backend.type,
    model: options.backend.model,
    usage: reply.usage,
    ...(reply.costUsd !== undefined ? { costUsd: reply.costUsd } : {}),
    durationMs: finished - started,
    ...(firstChunkAt !== undefined ? { timeToFirstTokenMs: firstChunkAt - started } : {}),
    finishReason: reply.finishReason,
  });
  return reply;
}
