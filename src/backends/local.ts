/**
 * The `local` backend: an embedded GGUF model run in-process through node-llama-cpp 3 on the CPU
 * (docs/architecture.md "Layers", docs/coordination.md "Prompts").
 *
 * Local models cannot take tool schemas, so when a request offers tools the choice is asked for
 * as one JSON object `{"tool": NAME, "arguments": {...}}`, described in the system prompt and
 * enforced by a JSON-schema grammar; the reply is parsed back into one `tool-call` chunk, so the
 * engine sees the same workflow call as from any provider. Without tools the reply is plain text,
 * streamed token by token.
 *
 * node-llama-cpp is imported lazily, so `coord --help` never loads the native addon. One Llama and
 * one model per GGUF path are shared by the whole process; each backend keeps one context of its
 * own (its KV cache is reused across the agent's rounds), and a concurrent call on the same backend
 * gets a temporary context. A process-wide thread budget keeps the sum of inference threads at most
 * the core count: past that, llama.cpp's spinning worker threads collapse throughput (a second
 * 2-thread context on 2 cores turns 2 s into 14 s).
 *
 * The grammar and the tools' prompt section are in local-grammar.ts, the chat history and its
 * truncation in local-prompt.ts, the thread budget in local-thread-budget.ts.
 */
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type {
  ChatHistoryItem,
  GbnfJsonSchema,
  GeneralChatWrapper,
  Llama,
  LlamaChat,
  LlamaContext,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
} from "node-llama-cpp";
import type * as NodeLlamaCpp from "node-llama-cpp";
import type { BackendConfig } from "../config/index.js";
import { localSampling } from "./generation-settings.js";
import { ConfigError } from "../errors.js";
import { BackendError } from "./backend.js";
import { importOptionalPackage, requireOptionalPackage } from "./optional-package.js";
import type { Backend, BackendChunk, ModelRequest, StreamOptions } from "./backend.js";
import {
  describeTools,
  parseReply,
  parseToolChoice,
  replyChoiceSchema,
  toolChoiceSchema,
} from "./local-grammar.js";
import { fitHistory, toChatHistory } from "./local-prompt.js";
import { abortReason, acquireThreads } from "./local-thread-budget.js";

/** CPU threads per context when the config sets none (more collapses on 2-core machines). */
export const DEFAULT_LOCAL_THREADS = 1;
/** Context window (tokens) when the config sets none. */
export const DEFAULT_LOCAL_CONTEXT_SIZE = 2048;
/** Output cap per call (tokens) when neither the request nor the config sets one. */
export const DEFAULT_LOCAL_MAX_TOKENS = 256;

/** Options of {@link createLocalBackend}. */
export interface LocalBackendOptions {
  /** Directory a relative `model` path resolves against. Default `process.cwd()`. */
  cwd?: string;
  /** Id for each tool call the model makes. Default `call_<uuid>`. */
  newToolCallId?: () => string;
}

type LlamaModule = typeof NodeLlamaCpp;
interface LoadedModel {
  lib: LlamaModule;
  llama: Llama;
  model: LlamaModel;
}
interface ModelEntry {
  refs: number;
  loaded?: Promise<LoadedModel>;
}
/** One context with its single sequence and chat, owned by one call at a time. */
interface Slot {
  context: LlamaContext;
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  wrapper: GeneralChatWrapper;
}

let runtime: Promise<{ lib: LlamaModule; llama: Llama }> | undefined;
/** Loaded models by absolute path, reference-counted by backend instances. */
const models = new Map<string, ModelEntry>();

function loadRuntime(): Promise<{ lib: LlamaModule; llama: Llama }> {
  runtime ??= (async () => {
    const lib = await importOptionalPackage("local", () => import("node-llama-cpp"));
    const llama = await lib.getLlama({
      gpu: false,
      build: "never",
      logLevel: lib.LlamaLogLevel.error,
    });
    return { lib, llama };
  })().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

function loadModel(modelPath: string, entry: ModelEntry): Promise<LoadedModel> {
  entry.loaded ??= (async () => {
    const { lib, llama } = await loadRuntime();
    return { lib, llama, model: await llama.loadModel({ modelPath }) };
  })().catch((error: unknown) => {
    entry.loaded = undefined;
    throw error;
  });
  return entry.loaded;
}

/** Callback → async-iterable bridge for the chunks of one call. */
function chunkChannel() {
  const queued: BackendChunk[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(chunk: BackendChunk) {
      queued.push(chunk);
      notify();
    },
    end(error?: { error: unknown }) {
      ended = true;
      failure = error;
      notify();
    },
    async *drain(): AsyncGenerator<BackendChunk> {
      for (;;) {
        const chunk = queued.shift();
        if (chunk !== undefined) yield chunk;
        else if (failure !== undefined) throw failure.error;
        else if (ended) return;
        else await new Promise<void>((resolveWake) => (wake = resolveWake));
      }
    },
  };
}

function checkModelFile(modelPath: string, configured: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(modelPath).isFile();
  } catch {
    throw new ConfigError(
      `local backend: model file ${modelPath} does not exist (backend.model is "${configured}"; relative paths resolve against the working directory)`,
    );
  }
  if (!isFile)
    throw new ConfigError(
      `local backend: model path ${modelPath} is not a file; give the path of a .gguf file`,
    );
  const magic = Buffer.alloc(4);
  const fd = openSync(modelPath, "r");
  try {
    readSync(fd, magic, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (magic.toString("latin1") !== "GGUF") {
    throw new ConfigError(
      `local backend: ${modelPath} is not a GGUF model file (it does not start with "GGUF")`,
    );
  }
}

/**
 * Creates the `local` backend for one agent. The GGUF file is checked now; the model loads on the
 * first call (about 0.6 s for the runtime, then per model) and stays loaded, shared by every local
 * backend on the same path, until the last of them is closed.
 *
 * Config: `model` (GGUF path, relative to `options.cwd`), `threads` (CPU threads per context,
 * default 1), `context_size` (tokens, default 2048), `max_tokens` (output cap per call, default
 * 256; a request's `maxOutputTokens` wins), `temperature` (default 0, greedy).
 *
 * Calls with tools (and `toolChoice` other than `none`) yield exactly one `tool-call` chunk and
 * finish `tool-calls`; with `toolChoice: auto` the model may instead reply `{"reply": TEXT}`,
 * yielded as one `text-delta` (a presenter with file tools writing its final answer); if the JSON
 * is cut off, the raw text comes as a `text-delta` and the call finishes `length` (or `stop`). Calls without tools stream `text-delta`s and finish `stop` or
 * `length`. Usage counts prompt and generated tokens; `cachedInputTokens` is the prompt prefix
 * already in this backend's KV cache. An aborted call throws `signal.reason` (an `AbortError`
 * DOMException by default).
 *
 * @throws ConfigError when `model` is missing, or the file does not exist or is not a GGUF file, or
 *   naming `node-llama-cpp` when it is not installed (`./optional-package.ts`).
 * Calls throw {@link BackendError} (not retryable) when the runtime or model fails to load or
 * inference fails.
 */
export function createLocalBackend(
  config: BackendConfig,
  options: LocalBackendOptions = {},
): Backend {
  const configured = config.model;
  if (configured === undefined || configured === "") {
    throw new ConfigError("local backend: `model` must be the path of a GGUF file", {
      path: "backend.model",
    });
  }
  const modelPath = resolve(options.cwd ?? process.cwd(), configured);
  checkModelFile(modelPath, configured);
  requireOptionalPackage("local");
  const threads = config.threads ?? DEFAULT_LOCAL_THREADS;
  const contextSize = config.context_size ?? DEFAULT_LOCAL_CONTEXT_SIZE;
  const newToolCallId = options.newToolCallId ?? (() => `call_${randomUUID()}`);

  let entry = models.get(modelPath);
  if (entry === undefined) models.set(modelPath, (entry = { refs: 0 }));
  entry.refs += 1;
  const modelEntry = entry;
  let idleSlot: Slot | undefined;
  let closed = false;
  /** In-flight calls: their abort controller and their settled-when-done generation. */
  const active = new Map<AbortController, Promise<void>>();

  const failure = (message: string, cause: unknown) =>
    new BackendError({
      message: `local model ${configured}: ${message}: ${cause instanceof Error ? cause.message : String(cause)}`,
      provider: "local",
      retryable: false,
      cause,
    });

  async function takeSlot(loaded: LoadedModel): Promise<Slot> {
    const slot = idleSlot;
    idleSlot = undefined;
    if (slot !== undefined) return slot;
    const context = await loaded.model.createContext({ contextSize, threads, sequences: 1 });
    const sequence = context.getSequence();
    const wrapper = new loaded.lib.GeneralChatWrapper();
    const chat = new loaded.lib.LlamaChat({ contextSequence: sequence, chatWrapper: wrapper });
    return { context, sequence, chat, wrapper };
  }

  async function returnSlot(slot: Slot, healthy: boolean): Promise<void> {
    if (healthy && !closed && idleSlot === undefined) idleSlot = slot;
    else await slot.context.dispose();
  }

  async function generate(
    request: ModelRequest,
    signal: AbortSignal,
    emit: (chunk: BackendChunk) => void,
  ) {
    let loaded: LoadedModel;
    try {
      loaded = await loadModel(modelPath, modelEntry);
    } catch (error) {
      throw failure("could not load the model with node-llama-cpp", error);
    }
    const useTools = request.tools.length > 0 && request.toolChoice !== "none";
    const requested = request.maxOutputTokens ?? config.max_tokens ?? DEFAULT_LOCAL_MAX_TOKENS;
    const toolChoices = useTools
      ? request.tools.map((tool) => toolChoiceSchema(tool, requested))
      : [];
    const reply =
      useTools && request.toolChoice === "auto" ? replyChoiceSchema(requested) : undefined;
    const choices = [
      ...toolChoices.map((choice) => choice.schema),
      ...(reply !== undefined ? [reply] : []),
    ];
    const maxTokens = Math.min(
      Math.max(requested, ...toolChoices.map((choice) => choice.maxTokens)),
      Math.floor(contextSize / 2),
    );
    const system = useTools
      ? [request.system, describeTools(request.tools, choices, reply)]
          .filter((text) => text !== "")
          .join("\n\n")
      : request.system;
    const release = await acquireThreads(threads, signal);
    let slot: Slot | undefined;
    let healthy = false;
    try {
      const grammar: LlamaGrammar | undefined = useTools
        ? await loaded.llama.createGrammarForJsonSchema<GbnfJsonSchema>(
            (choices.length === 1 ? choices[0] : { oneOf: choices }) as GbnfJsonSchema,
          )
        : undefined;
      slot = await takeSlot(loaded);
      const wrapper = slot.wrapper;
      const tokenize = (items: ChatHistoryItem[]) =>
        wrapper
          .generateContextState({ chatHistory: items })
          .contextText.tokenize(loaded.model.tokenizer);
      const budget = contextSize - maxTokens - 8;
      if (useTools) {
        // The tools' section is never cut: a prompt without it cannot call them.
        const systemTokens = tokenize([{ type: "system", text: system }]).length;
        if (systemTokens > budget) {
          throw new BackendError({
            message: `local model ${configured}: the system prompt with its ${request.tools.length} tools takes ${systemTokens} tokens, more than context_size ${contextSize} leaves after ${maxTokens} output tokens: raise \`context_size\` in the agent's backend config, or give the agent fewer tools`,
            provider: "local",
            retryable: false,
          });
        }
      }
      const fitted = fitHistory(
        toChatHistory(system, request.messages),
        budget,
        (items) => tokenize(items).length,
      );
      const cachedInputTokens = slot.sequence.compareContextTokens(
        tokenize(fitted.history),
      ).firstDifferentIndex;
      let outputTokens = 0;
      const result = await slot.chat.generateResponse(fitted.history, {
        maxTokens,
        temperature: request.temperature ?? config.temperature ?? 0,
        ...localSampling(config),
        signal,
        grammar,
        onToken: (tokens) => (outputTokens += tokens.length),
        onTextChunk: useTools
          ? undefined
          : (text) => text !== "" && emit({ type: "text-delta", text }),
      });
      healthy = true;
      const usage = {
        inputTokens: fitted.tokens,
        outputTokens,
        reasoningTokens: 0,
        cachedInputTokens,
      };
      const stopReason = result.metadata.stopReason;
      const call = useTools ? parseToolChoice(result.response, request.tools) : undefined;
      if (call !== undefined) {
        emit({ type: "tool-call", toolCallId: newToolCallId(), ...call });
        emit({ type: "finish", finishReason: "tool-calls", usage });
        return;
      }
      const replied = reply !== undefined ? parseReply(result.response) : undefined;
      const text = replied ?? (useTools ? result.response : "");
      if (useTools && text !== "") emit({ type: "text-delta", text });
      emit({ type: "finish", finishReason: stopReason === "maxTokens" ? "length" : "stop", usage });
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      if (error instanceof BackendError) throw error;
      throw failure("inference failed", error);
    } finally {
      release();
      if (slot !== undefined) await returnSlot(slot, healthy);
    }
  }

  async function* stream(
    request: ModelRequest,
    { signal }: StreamOptions,
  ): AsyncGenerator<BackendChunk> {
    if (closed)
      throw new BackendError({
        message: `local model ${configured}: backend is closed`,
        provider: "local",
        retryable: false,
      });
    signal.throwIfAborted();
    const controller = new AbortController(); // aborted when the consumer stops early or on close()
    const channel = chunkChannel();
    const done = generate(request, AbortSignal.any([signal, controller.signal]), (chunk) =>
      channel.push(chunk),
    ).then(
      () => channel.end(),
      (error: unknown) => channel.end({ error }),
    );
    active.set(controller, done);
    try {
      yield* channel.drain();
    } finally {
      controller.abort();
      await done;
      active.delete(controller);
    }
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    for (const controller of active.keys()) controller.abort();
    await Promise.all(active.values());
    const slot = idleSlot;
    idleSlot = undefined;
    if (slot !== undefined) await slot.context.dispose();
    modelEntry.refs -= 1;
    if (modelEntry.refs > 0) return;
    models.delete(modelPath);
    const loaded = await modelEntry.loaded?.catch(() => undefined);
    await loaded?.model.dispose();
  }

  return { type: "local", model: configured, stream, close };
}
