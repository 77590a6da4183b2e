/**
 * One model call of one agent: streams the backend's chunks into events and ends with a `usage`
 * event carrying the call's tokens, cost in USD (when the backend is priced), wall time and time
 * to first token (ms).
 *
 * Streamed text and reasoning become blocks (`text-start`/`-delta`/`-end`, the same for
 * `reasoning`, or `final-*` for the presentation's text), one open at a time: each opens at its
 * first delta and closes when another kind starts or the call ends, however it ends. Tools the provider ran itself become `tool-call` /
 * `tool-result`; the retry wrapper's notices become `retry` events and provider warnings
 * `warning` events, so the log holds everything the user was told.
 */
import {
  type Backend,
  emptyUsage,
  type ModelRequest,
  type ToolCall,
  type Usage,
} from "../backends/index.js";
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
  /** The agent the call's events are about; undefined for a planning backend of its own. */
  agentId: string | undefined;
  backend: Backend;
  request: ModelRequest;
  round: number;
  emitter: Emitter;
  clock: Clock;
  signal: AbortSignal;
  /**
   * `final`: text streams as `final-delta` (the presentation); `none`: text and reasoning are
   * collected but not streamed as events (a reply whose text another event carries); default
   * `text-delta`.
   */
  textAs?: "text" | "final" | "none";
}

/**
 * Performs the call and emits its events.
 * @throws whatever the backend throws (BackendError, AbortError); a call that failed still emits
 *   its `usage` event (`failed: true`, finish reason `error`), one aborted by the signal does not;
 *   every block opened is closed either way.
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
  const blocks = openBlocks(options);
  const emitUsage = (failed: boolean) =>
    emitter.emit({
      type: "usage",
      agentId,
      round,
      backend: options.backend.type,
      model: options.backend.model,
      usage: reply.usage,
      ...(reply.costUsd !== undefined ? { costUsd: reply.costUsd } : {}),
      durationMs: clock.now() - started,
      ...(firstChunkAt !== undefined ? { timeToFirstTokenMs: firstChunkAt - started } : {}),
      finishReason: failed ? "error" : reply.finishReason,
      ...(failed ? { failed: true } : {}),
    });
  const providerCallStarted = new Map<string, number>();
  try {
    for await (const chunk of options.backend.stream(options.request, {
      signal: options.signal,
    })) {
      if (chunk.type !== "retry" && chunk.type !== "warning") firstChunkAt ??= clock.now();
      switch (chunk.type) {
        case "text-delta":
          reply.text += chunk.text;
          if (options.textAs !== "none")
            blocks.delta(options.textAs === "final" ? "final" : "text", chunk.text);
          break;
        case "reasoning-delta":
          reply.reasoning += chunk.text;
          if (options.textAs !== "none") blocks.delta("reasoning", chunk.text);
          break;
        case "tool-call":
          reply.toolCalls.push({
            toolCallId: chunk.toolCallId,
            toolName: chunk.toolName,
            input: chunk.input,
            ...(chunk.repaired === true ? { repaired: true } : {}),
            ...(chunk.inputError !== undefined ? { inputError: chunk.inputError } : {}),
          });
          break;
        case "provider-tool-call":
          // Run by the provider (web search, code execution): logged, never executed here and
          // never a workflow call.
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
              typeof chunk.output === "string"
                ? chunk.output
                : (JSON.stringify(chunk.output) ?? ""),
            isError: chunk.isError,
            durationMs: clock.now() - (providerCallStarted.get(chunk.toolCallId) ?? clock.now()),
          });
          break;
        case "retry":
          emitter.emit({
            type: "retry",
            agentId,
            round,
            attempt: chunk.attempt,
            waitMs: chunk.delayMs,
            ...(chunk.error.status !== undefined ? { status: chunk.error.status } : {}),
            errorKind: chunk.errorKind,
            reason: chunk.error.message,
          });
          break;
        case "warning":
          emitter.emit({
            type: "warning",
            agentId,
            source: `${options.backend.type}/${options.backend.model}`,
            message: chunk.message,
          });
          break;
        case "finish":
          reply.finishReason = chunk.finishReason;
          reply.usage = chunk.usage;
          if (chunk.costUsd !== undefined) reply.costUsd = chunk.costUsd;
          break;
      }
    }
  } catch (error) {
    // A request that was sent and failed is still a model call: counted, apart.
    if (!options.signal.aborted) emitUsage(true);
    throw error;
  } finally {
    blocks.closeAll();
  }
  emitUsage(false);
  return reply;
}

type BlockKind = "text" | "reasoning" | "final";

/**
 * The streamed blocks of one call, one open at a time: a block opens at the first delta of its
 * kind and closes when a delta of another kind arrives (reasoning, then text) or the call ends.
 */
function openBlocks(options: ModelCallOptions): {
  delta(kind: BlockKind, text: string): void;
  closeAll(): void;
} {
  const { agentId, round, emitter } = options;
  let open: { kind: BlockKind; blockId: string } | undefined;
  const close = () => {
    if (open === undefined) return;
    const { kind, blockId } = open;
    if (kind === "final") emitter.emit({ type: "final-end", agentId, blockId });
    else emitter.emit({ type: `${kind}-end`, agentId, round, blockId });
    open = undefined;
  };
  return {
    delta(kind, text) {
      if (open?.kind !== kind) {
        close();
        const blockId = emitter.nextBlockId();
        open = { kind, blockId };
        if (kind === "final") emitter.emit({ type: "final-start", agentId, blockId });
        else emitter.emit({ type: `${kind}-start`, agentId, round, blockId });
      }
      const { blockId } = open;
      if (kind === "final") emitter.emit({ type: "final-delta", agentId, blockId, text });
      else emitter.emit({ type: `${kind}-delta`, agentId, round, blockId, text });
    },
    closeAll: close,
  };
}
