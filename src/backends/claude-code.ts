/**
 * The `claude_code` backend: a code agent through `@anthropic-ai/claude-agent-sdk`, which runs
 * the Claude Code CLI it bundles as a child process.
 *
 * coord's engine owns the tool loop and the backend interface is one model call per
 * {@link Backend.stream}; Claude Code runs its own loop (reading files, running commands in the
 * agent's working directory). So one `stream()` is one Claude Code query: the request is written
 * into its prompt and system prompt (`./claude-code-request.ts`), the request's tools
 * (`new_answer`, `vote`, …) are in-process MCP tools, and when the model calls one the call is
 * yielded as a `tool-call` chunk under its plain name and the query is interrupted: the engine
 * validates the call and answers it in the next `stream()`. Claude Code's own tools are reported
 * as `provider-tool-call` / `provider-tool-result` chunks. Usage is the query's total (every API
 * request it made), from its result message.
 *
 * Config keys (`agents[].backend`): `model` (optional: Claude Code's default when absent), `cwd` (in a run: the name of the agent's
 * private workspace, docs/tools.md, where Claude Code runs with its own tools confined by
 * `./claude-code-confine.ts`; a backend built without the runner's file access runs in `cwd`
 * resolved against coord's working directory, default that directory), `allowed_tools`, `disallowed_tools`, `permission_mode` (`default`, `acceptEdits`,
 * `bypassPermissions`, `plan`, `dontAsk`, `auto`), `system_prompt`, `append_system_prompt`,
 * `max_thinking_tokens`, `max_turns`, `api_key`, `base_url`. `temperature` is not supported by
 * Claude Code and is ignored.
 *
 * Credentials: `api_key:`, else `ANTHROPIC_API_KEY`, else a Claude login token
 * (`CLAUDE_CODE_OAUTH_TOKEN`, from `claude setup-token`). `base_url:` or `ANTHROPIC_BASE_URL` (an
 * origin such as `http://127.0.0.1:8080`, no `/v1`) points it at another Messages API server.
 * Claude Code's own retries are off (`CLAUDE_CODE_MAX_RETRIES=0` unless set): coord's retry
 * wrapper retries, honouring its settings.
 */
import type {
  Query,
  SDKMessage,
  SDKResultMessage,
  SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import type { BackendConfig } from "../config/index.js";
import {
  BackendError,
  isRetryableStatus,
  type Backend,
  type BackendChunk,
  type ModelRequest,
  type StreamOptions,
  type Usage,
} from "./backend.js";
import {
  renderPrompt,
  workflowMcpServer,
  WORKFLOW_MCP_SERVER,
  WORKFLOW_TOOL_PREFIX,
  type RecordedToolCall,
} from "./claude-code-request.js";
import {
  claudeCodeSettings,
  queryOptions,
  type ClaudeCodeContext,
  type ClaudeCodeSettings,
  type QueryFunction,
} from "./claude-code-settings.js";
import { contextOverflowOf } from "./context-length.js";
import { importOptionalPackage, requireOptionalPackage } from "./optional-package.js";

export {
  CLAUDE_CODE_PERMISSION_MODES,
  claudeCodeSettings,
  queryOptions,
  type ClaudeCodeContext,
  type ClaudeCodeSettings,
  type QueryFunction,
} from "./claude-code-settings.js";

/** The model name logs show for a `claude_code` agent whose config names none. */
export const CLAUDE_CODE_DEFAULT_MODEL = "claude-code-default";

/**
 * Creates the `claude_code` backend (see the module comment for keys and credentials).
 * @throws ConfigError as {@link claudeCodeSettings}, or naming `@anthropic-ai/claude-agent-sdk`
 *   when it is not installed (`./optional-package.ts`).
 */
export function createClaudeCodeBackend(
  config: BackendConfig,
  context: ClaudeCodeContext,
): Backend {
  requireOptionalPackage("claude_code");
  const settings = claudeCodeSettings(config, { uid: process.getuid?.(), ...context });
  return {
    type: "claude_code",
    model: settings.model ?? CLAUDE_CODE_DEFAULT_MODEL,
    stream: (request, options) => streamQuery(settings, request, options, context.query),
  };
}

async function* streamQuery(
  settings: ClaudeCodeSettings,
  request: ModelRequest,
  { signal }: StreamOptions,
  injectedQuery: QueryFunction | undefined,
): AsyncGenerator<BackendChunk> {
  signal.throwIfAborted();
  const sdk = await importOptionalPackage(
    "claude_code",
    () => import("@anthropic-ai/claude-agent-sdk"),
  );
  const query: QueryFunction = injectedQuery ?? sdk.query;
  const calls: RecordedToolCall[] = [];
  let interrupted = false;
  let running: Query | undefined;
  const abort = new AbortController();
  const onAbort = () => abort.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  let release: () => void = () => undefined;
  const finished = new Promise<void>((done) => (release = done));
  async function* prompt(): AsyncGenerator<SDKUserMessage> {
    yield {
      type: "user",
      message: { role: "user", content: renderPrompt(request.messages) },
      parent_tool_use_id: null,
    };
    await finished; // streaming input keeps the query open for the MCP tools and interrupt()
  }
  const mcp =
    request.tools.length > 0 && request.toolChoice !== "none"
      ? workflowMcpServer(sdk, request.tools, (call) => {
          calls.push(call);
          if (interrupted) return;
          interrupted = true;
          void running?.interrupt().catch(() => undefined);
        })
      : undefined;
  const options = queryOptions(settings, request, {
    abortController: abort,
    ...(mcp ? { mcpServers: { [WORKFLOW_MCP_SERVER]: mcp } } : {}),
  });

  const seen: SeenSoFar = { toolUseIds: [], builtinCalls: new Map(), text: "none" };
  let result: SDKResultMessage | undefined;
  try {
    running = query({ prompt: prompt(), options });
    for await (const message of running) {
      if (message.type === "result") {
        result = message;
        break;
      }
      yield* chunksOf(message, seen);
    }
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw toBackendError(error);
  } finally {
    release();
    signal.removeEventListener("abort", onAbort);
    running?.close();
  }
  if (signal.aborted) throw abortError(signal);
  if (result === undefined) {
    throw new BackendError({
      message: "claude_code: Claude Code ended without a result",
      provider: "claude_code",
      retryable: true,
    });
  }
  if (calls.length === 0) checkResult(result);
  for (const [index, call] of calls.entries()) {
    const at = seen.toolUseIds.findIndex((entry) => entry.name === call.toolName);
    const id = at >= 0 ? seen.toolUseIds.splice(at, 1)[0]!.id : `claude_code_call_${index + 1}`;
    yield { type: "tool-call", toolCallId: id, toolName: call.toolName, input: call.input };
  }
  yield {
    type: "finish",
    finishReason:
      calls.length > 0 ? "tool-calls" : result.subtype === "error_max_turns" ? "length" : "stop",
    usage: usageOf(result),
  };
}

/** What earlier messages of the query told {@link chunksOf}. */
interface SeenSoFar {
  /** Ids of workflow-tool uses (plain names), in order, to give the recorded calls their ids. */
  toolUseIds: { name: string; id: string }[];
  /** Claude Code's own tool uses: id → tool name. */
  builtinCalls: Map<string, string>;
  /** Text streamed so far: none, in the current API response, or in an earlier one. */
  text: "none" | "current" | "earlier";
}

/**
 * The chunks one SDK message carries (main thread only; subagents' messages are skipped). Text
 * from successive API responses of the query (before and after Claude Code ran a tool) is
 * separated by a blank line.
 */
function* chunksOf(message: SDKMessage, seen: SeenSoFar): Generator<BackendChunk> {
  if (!("parent_tool_use_id" in message) || message.parent_tool_use_id !== null) return;
  if (message.type === "stream_event") {
    const event = message.event;
    if (event.type === "message_start" && seen.text === "current") seen.text = "earlier";
    if (event.type !== "content_block_delta") return;
    if (event.delta.type === "text_delta" && event.delta.text !== "") {
      const gap = seen.text === "earlier" ? "\n\n" : "";
      seen.text = "current";
      yield { type: "text-delta", text: gap + event.delta.text };
    }
    if (event.delta.type === "thinking_delta" && event.delta.thinking !== "")
      yield { type: "reasoning-delta", text: event.delta.thinking };
    return;
  }
  if (message.type === "assistant") {
    for (const block of message.message.content) {
      if (block.type !== "tool_use") continue;
      if (block.name.startsWith(WORKFLOW_TOOL_PREFIX)) {
        seen.toolUseIds.push({
          name: block.name.slice(WORKFLOW_TOOL_PREFIX.length),
          id: block.id,
        });
        continue;
      }
      seen.builtinCalls.set(block.id, block.name);
      yield {
        type: "provider-tool-call",
        toolCallId: block.id,
        toolName: block.name,
        input: block.input,
      };
    }
    return;
  }
  if (message.type === "user" && Array.isArray(message.message.content)) {
    for (const block of message.message.content) {
      if (block.type !== "tool_result") continue;
      const name = seen.builtinCalls.get(block.tool_use_id);
      if (name === undefined) continue;
      yield {
        type: "provider-tool-result",
        toolCallId: block.tool_use_id,
        toolName: name,
        output: toolResultText(block.content),
        isError: block.is_error === true,
      };
    }
  }
}

function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && "text" in part ? String(part.text) : "",
    )
    .join("");
}

/** Tokens of the whole query: Anthropic's `input_tokens` exclude cache reads and writes. */
export function usageOf(result: SDKResultMessage): Usage {
  const usage = result.usage;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const details = (usage as { output_tokens_details?: { thinking_tokens?: number } | null })
    .output_tokens_details;
  return {
    inputTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage.output_tokens ?? 0,
    reasoningTokens: details?.thinking_tokens ?? 0,
    cachedInputTokens: cacheRead,
  };
}

/** @throws BackendError for a result that reports a failure (an API error, a CLI error). */
/**
 * Throws the {@link BackendError} a failed Claude Code result stands for (a prompt over the
 * model's context as `kind: "context-length"`, never retried); returns for a success.
 */
export function checkResult(result: SDKResultMessage): void {
  if (result.subtype === "success" && !result.is_error) return;
  if (result.subtype === "error_max_turns") return; // reported as finish reason `length`
  const status = (result as { api_error_status?: number | null }).api_error_status ?? undefined;
  const text =
    result.subtype === "success"
      ? result.result
      : result.errors.join("; ") || result.subtype.replace(/_/g, " ");
  const overflow = contextOverflowOf(text);
  throw new BackendError({
    ...(overflow !== undefined
      ? { kind: "context-length" as const, contextWindow: overflow.contextWindow }
      : {}),
    message: `claude_code${status !== undefined ? ` ${status}` : ""}: ${text}${status === 401 ? " (check ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN or `api_key:`)" : ""}`,
    provider: "claude_code",
    ...(status !== undefined ? { status } : {}),
    retryable:
      status === undefined
        ? result.subtype === "error_during_execution"
        : isRetryableStatus(status),
  });
}

function toBackendError(error: unknown): Error {
  if (error instanceof BackendError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BackendError({
    message: `claude_code: ${message}`,
    provider: "claude_code",
    retryable: false,
    cause: error,
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException("aborted", "AbortError");
}
