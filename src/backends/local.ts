/**
 * The `local` backend: an embedded GGUF model run in-process through node-llama-cpp 3 on the CPU
 * (ARCHITECTURE.md "backends/", COORDINATION.md "Prompts").
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
 */
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
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
import type { BackendConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { BackendError } from "./backend.js";
import type {
  Backend,
  BackendChunk,
  ChatMessage,
  ModelRequest,
  StreamOptions,
  ToolSpec,
} from "./backend.js";

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
    const lib = await import("node-llama-cpp");
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

const threadBudget = { capacity: Math.max(1, availableParallelism()), inUse: 0 };
const threadWaiters: Array<{ units: number; grant: () => void }> = [];

function drainThreadWaiters(): void {
  while (
    threadWaiters.length > 0 &&
    threadBudget.inUse + threadWaiters[0]!.units <= threadBudget.capacity
  ) {
    const waiter = threadWaiters.shift()!;
    threadBudget.inUse += waiter.units;
    waiter.grant();
  }
}

/** Waits (FIFO) until `threads` CPU threads are free; resolves to the release function. */
async function acquireThreads(threads: number, signal: AbortSignal): Promise<() => void> {
  const units = Math.min(threads, threadBudget.capacity);
  signal.throwIfAborted();
  await new Promise<void>((grant, reject) => {
    const waiter = { units, grant };
    const onAbort = () => {
      threadWaiters.splice(threadWaiters.indexOf(waiter), 1);
      reject(abortReason(signal));
    };
    waiter.grant = () => {
      signal.removeEventListener("abort", onAbort);
      grant();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    threadWaiters.push(waiter);
    drainThreadWaiters();
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    threadBudget.inUse -= units;
    drainThreadWaiters();
  };
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException("The local model call was aborted.", "AbortError");
}

/** A JSON Schema as a plain object (the subset node-llama-cpp's grammar accepts). */
type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Converts a tool's input schema to node-llama-cpp's GBNF JSON-schema subset: strings capped at
 * `stringCap` characters, arrays at 3 items, objects closed and holding their `required`
 * properties (all properties when `required` is absent), `anyOf`/`oneOf`/type lists as `oneOf`,
 * unknown or `$ref` schemas as a short scalar.
 */
function toGrammarSchema(schema: Schema, stringCap: number): Schema {
  const description =
    typeof schema.description === "string" ? { description: schema.description } : {};
  const isPrimitive = (value: unknown) =>
    value === null || ["string", "number", "boolean"].includes(typeof value);
  if ("const" in schema && isPrimitive(schema.const))
    return { const: schema.const, ...description };
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isPrimitive)) {
    return { enum: schema.enum, ...description };
  }
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants) && variants.some(isSchema)) {
    return {
      oneOf: variants.filter(isSchema).map((variant) => toGrammarSchema(variant, stringCap)),
      ...description,
    };
  }
  if (Array.isArray(schema.type)) {
    const oneOf = schema.type.map((type: unknown) =>
      toGrammarSchema({ ...schema, type, description: undefined }, stringCap),
    );
    return { oneOf, ...description };
  }
  const type = schema.type ?? (isSchema(schema.properties) ? "object" : undefined);
  switch (type) {
    case "string": {
      const maxLength = Math.min(
        typeof schema.maxLength === "number" ? schema.maxLength : stringCap,
        stringCap,
      );
      const minLength = Math.min(
        typeof schema.minLength === "number" ? schema.minLength : 0,
        maxLength,
      );
      return { type, ...(minLength > 0 ? { minLength } : {}), maxLength, ...description };
    }
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return { type, ...description };
    case "array": {
      const maxItems = Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 3, 3);
      const minItems = Math.min(
        typeof schema.minItems === "number" ? schema.minItems : 0,
        maxItems,
      );
      const items = isSchema(schema.items)
        ? toGrammarSchema(schema.items, stringCap)
        : scalarSchema(stringCap);
      return { type, items, minItems, maxItems, ...description };
    }
    case "object": {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : undefined;
      const kept = Object.entries(properties).filter(
        ([key, value]) => isSchema(value) && (required === undefined || required.includes(key)),
      );
      const converted = kept.map(([key, value]) => [
        key,
        toGrammarSchema(value as Schema, stringCap),
      ]);
      return {
        type,
        properties: Object.fromEntries(converted),
        additionalProperties: false,
        ...description,
      };
    }
    default:
      return { ...scalarSchema(stringCap), ...description };
  }
}

function scalarSchema(stringCap: number): Schema {
  return {
    oneOf: [{ type: "string", maxLength: stringCap }, { type: "number" }, { type: "boolean" }],
  };
}

/** Worst-case characters of a grammar schema's JSON, strings counted empty (1 token ≈ 1 char). */
function skeletonChars(schema: Schema): number {
  if ("const" in schema) return JSON.stringify(schema.const).length;
  if (Array.isArray(schema.enum))
    return Math.max(...schema.enum.map((value) => JSON.stringify(value).length));
  if (Array.isArray(schema.oneOf))
    return Math.max(...(schema.oneOf as Schema[]).map(skeletonChars));
  if (schema.type === "array")
    return 2 + Number(schema.maxItems) * (skeletonChars(schema.items as Schema) + 2);
  if (schema.type === "object") {
    const entries = Object.entries(schema.properties as Record<string, Schema>);
    return (
      12 + entries.reduce((sum, [key, value]) => sum + key.length + 14 + skeletonChars(value), 0)
    );
  }
  return { string: 2, number: 12, integer: 12, boolean: 5, null: 4 }[String(schema.type)] ?? 12;
}

/** How many strings one value of a grammar schema holds at most. */
function stringSlots(schema: Schema): number {
  if (Array.isArray(schema.oneOf)) return Math.max(...(schema.oneOf as Schema[]).map(stringSlots));
  if (schema.type === "string") return 1;
  if (schema.type === "array") return Number(schema.maxItems) * stringSlots(schema.items as Schema);
  if (schema.type === "object") {
    return Object.values(schema.properties as Record<string, Schema>).reduce(
      (sum, value) => sum + stringSlots(value),
      0,
    );
  }
  return 0;
}

/** Shortest string cap (characters) a tool call gets, even past the output cap. */
const MIN_STRING_CAP = 8;

/**
 * The grammar schema `{"tool": NAME, "arguments": ARGS}` for one tool, its strings capped so the
 * whole object fits in `maxTokens`, counting 1 token per character (measured: grammar-forced JSON
 * from stories260K is about that). When even {@link MIN_STRING_CAP}-character strings do not fit,
 * the returned `maxTokens` is raised to what they need: a call that cannot finish is worse.
 */
function toolChoiceSchema(
  tool: ToolSpec,
  maxTokens: number,
): { schema: Schema; maxTokens: number } {
  const wrap = (args: Schema): Schema => ({
    type: "object",
    properties: { tool: { const: tool.name }, arguments: args },
    additionalProperties: false,
  });
  const probe = wrap(toGrammarSchema(tool.inputSchema, 0));
  const fixed = skeletonChars(probe) + 8; // 8: the grammar's closing newlines and slack
  const slots = Math.max(1, stringSlots(probe));
  const budget = Math.max(maxTokens, fixed + slots * MIN_STRING_CAP);
  const stringCap = Math.floor((budget - fixed) / slots);
  return { schema: wrap(toGrammarSchema(tool.inputSchema, stringCap)), maxTokens: budget };
}

/** A compact TypeScript-like rendering of a grammar schema, for the prompt. */
function describeSchema(schema: Schema): string {
  const note = (text: string) =>
    typeof schema.description === "string" ? `${text} /* ${schema.description} */` : text;
  if ("const" in schema) return note(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum))
    return note(schema.enum.map((value) => JSON.stringify(value)).join(" | "));
  if (Array.isArray(schema.oneOf))
    return note((schema.oneOf as Schema[]).map(describeSchema).join(" | "));
  if (schema.type === "string")
    return note(`string (at most ${String(schema.maxLength)} characters)`);
  if (schema.type === "array") return note(`${describeSchema(schema.items as Schema)}[]`);
  if (schema.type === "object") {
    const entries = Object.entries(schema.properties as Record<string, Schema>);
    return note(
      `{${entries.map(([key, value]) => `${JSON.stringify(key)}: ${describeSchema(value)}`).join(", ")}}`,
    );
  }
  return note(String(schema.type));
}

/** The system-prompt section that offers the tools as one JSON reply. */
function describeTools(tools: readonly ToolSpec[], choices: readonly Schema[]): string {
  const lines = tools.map((tool, index) => {
    const args = (choices[index]!.properties as Record<string, Schema>).arguments!;
    return `- ${tool.name}: ${tool.description}\n  {"tool": "${tool.name}", "arguments": ${describeSchema(args)}}`;
  });
  return [
    "Reply with exactly one JSON object that calls one of these tools, and nothing else:",
    ...lines,
  ].join("\n");
}

/** A tool call as the JSON text the model is asked to write. */
function toolCallText(toolName: string, input: unknown): string {
  return JSON.stringify({ tool: toolName, arguments: input });
}

/**
 * Renders a request as node-llama-cpp chat history: tool results become user turns, assistant
 * tool calls their JSON, consecutive turns of one role are merged, and an empty model turn at the
 * end is the one to generate.
 */
function toChatHistory(system: string, messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = system === "" ? [] : [{ type: "system", text: system }];
  const push = (type: "user" | "model", text: string) => {
    if (text === "") return;
    const last = items.at(-1);
    if (last?.type === "user" && type === "user") last.text += `\n\n${text}`;
    else if (last?.type === "model" && type === "model") last.response.push(`\n${text}`);
    else items.push(type === "user" ? { type, text } : { type, response: [text] });
  };
  for (const message of messages) {
    if (message.role === "user") push("user", message.content);
    else if (message.role === "tool") {
      push(
        "user",
        `Result of ${message.toolName}${message.isError ? " (error)" : ""}: ${message.content}`,
      );
    } else {
      const calls = (message.toolCalls ?? []).map((call) =>
        toolCallText(call.toolName, call.input),
      );
      push("model", [message.content, ...calls].filter((text) => text !== "").join("\n"));
    }
  }
  items.push({ type: "model", response: [] });
  return items;
}

/**
 * Drops the oldest turns (then cuts the oldest text) until the prompt is at most `budget` tokens.
 * The system prompt and the newest turn are kept; returns the history and its token count.
 */
function fitHistory(
  history: ChatHistoryItem[],
  budget: number,
  countTokens: (items: ChatHistoryItem[]) => number,
): { history: ChatHistoryItem[]; tokens: number } {
  const items = structuredClone(history);
  const first = items[0]?.type === "system" ? 1 : 0;
  let tokens = countTokens(items);
  while (tokens > budget && items.length - first > 2) {
    items.splice(first, 1);
    while (items[first]?.type === "model" && items.length - first > 2) items.splice(first, 1);
    tokens = countTokens(items);
  }
  for (let attempt = 0; tokens > budget && attempt < 8; attempt++) {
    const target = items.slice(0, -1).find((item) => item.type === "user") ?? items[0];
    if (target === undefined || (target.type !== "user" && target.type !== "system")) break;
    const text = typeof target.text === "string" ? target.text : "";
    const keep = Math.floor(text.length * Math.max(0, 1 - (tokens - budget) / tokens) * 0.9);
    // A user turn loses its oldest text; a too-long system prompt loses its end.
    target.text =
      target.type === "user" ? `…${text.slice(text.length - keep)}` : `${text.slice(0, keep)}…`;
    tokens = countTokens(items);
  }
  return { history: items, tokens };
}

/** Parses a grammar-constrained reply into a call of one of `tools`, or undefined. */
function parseToolChoice(
  text: string,
  tools: readonly ToolSpec[],
): { toolName: string; input: unknown } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isSchema(parsed) || typeof parsed.tool !== "string" || !isSchema(parsed.arguments))
    return undefined;
  if (!tools.some((tool) => tool.name === parsed.tool)) return undefined;
  return { toolName: parsed.tool, input: parsed.arguments };
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
 * finish `tool-calls`; if the JSON is cut off, the raw text comes as a `text-delta` and the call
 * finishes `length` (or `stop`). Calls without tools stream `text-delta`s and finish `stop` or
 * `length`. Usage counts prompt and generated tokens; `cachedInputTokens` is the prompt prefix
 * already in this backend's KV cache. An aborted call throws `signal.reason` (an `AbortError`
 * DOMException by default).
 *
 * @throws ConfigError when `model` is missing, or the file does not exist or is not a GGUF file.
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
    const choices = toolChoices.map((choice) => choice.schema);
    const maxTokens = Math.min(
      Math.max(requested, ...toolChoices.map((choice) => choice.maxTokens)),
      Math.floor(contextSize / 2),
    );
    const system = useTools
      ? [request.system, describeTools(request.tools, choices)]
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
      const fitted = fitHistory(
        toChatHistory(system, request.messages),
        contextSize - maxTokens - 8,
        (items) => tokenize(items).length,
      );
      const cachedInputTokens = slot.sequence.compareContextTokens(
        tokenize(fitted.history),
      ).firstDifferentIndex;
      let outputTokens = 0;
      const result = await slot.chat.generateResponse(fitted.history, {
        maxTokens,
        temperature: request.temperature ?? config.temperature ?? 0,
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
      if (useTools && result.response !== "") emit({ type: "text-delta", text: result.response });
      emit({ type: "finish", finishReason: stopReason === "maxTokens" ? "length" : "stop", usage });
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
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
