/**
 * One chat completion: runs the team on the request (src/runner/run-team.ts) and renders the
 * finished run as an OpenAI `chat.completion` object (spec section 4.3): `content` is the final
 * answer, `reasoning_content` the run's trace lines (COORDINATION.md "Events"), `usage` the
 * run's token totals (the same figures as the run's metrics.json `totals.tokens`).
 */
import { randomBytes } from "node:crypto";
import { relative } from "node:path";
import { defaultLogRoot, runTeam } from "../runner/run-team.js";
import type { RunState } from "../session/reducer.js";
import type { LogWriter } from "../store/log-writer.js";
import { createTraceFormatter, oneLine } from "../ui/plain/trace-lines.js";
import { ApiError } from "./api-error.js";
import type { ChatRequest } from "./chat-request.js";
import type { ServedTeam } from "./served-team.js";

/** `usage` of a response; tokens. */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** The response body of `POST /v1/chat/completions` (OpenAI's `chat.completion` object). */
export interface ChatCompletion {
  /** `chatcmpl-<24 hex digits>`. */
  id: string;
  object: "chat.completion";
  /** Unix time, seconds. */
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: { role: "assistant"; content: string; reasoning_content: string };
      finish_reason: "stop";
    },
  ];
  usage: CompletionUsage;
}

/** Everything one completion needs from the server. */
export interface CompletionContext {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Run log root (absolute or relative to `cwd`); undefined for no run logs. */
  logRoot: string | undefined;
  debug: boolean;
  version: string;
  /** For execution_metadata.yaml. */
  cliArgs: readonly string[];
  /** Aborts the run (client gone, request timeout, shutdown); see `abortReason`. */
  signal: AbortSignal;
  /** Epoch ms. */
  now: () => number;
  /** Called with each trace line when `debug` is on. */
  onTrace?: ((line: string) => void) | undefined;
  /** Called once the run ended, with its final state (observability, tests). */
  onRunEnd?: ((state: RunState, logDir: string | undefined) => void) | undefined;
}

/** A finished completion and where its run log is. */
export interface CompletionResult {
  body: ChatCompletion;
  /** The `log_…` directory relative to the server's working directory, when logging. */
  logDir: string | undefined;
}

/**
 * Runs the team on the request and builds the response.
 * @throws ApiError 500 when the team cannot be set up (a missing key, an unusable backend) or
 *   every agent failed (the message lists the agents' errors); 504 when the run timed out
 *   without an answer (the config's orchestrator timeout or the server's request timeout); 503
 *   when it was stopped (the server shutting down past its grace period, or the client gone).
 */
export async function runChatCompletion(
  team: ServedTeam,
  request: ChatRequest,
  context: CompletionContext,
): Promise<CompletionResult> {
  const trace = createTraceFormatter();
  const lines: string[] = [];
  let writer: LogWriter | undefined;
  const logging = context.logRoot !== undefined && team.config.ui.logging_enabled;
  let result;
  try {
    result = await runTeam({
      config: team.config,
      mode: team.mode,
      agentIndexes: team.agentIndexes,
      question: request.question,
      history: request.history,
      ...(request.systemMessage !== undefined ? { extraSystemMessage: request.systemMessage } : {}),
      env: context.env,
      cwd: context.cwd,
      log: logging
        ? {
            root: context.logRoot ?? defaultLogRoot(context.env, context.cwd),
            coordVersion: context.version,
            cliArgs: context.cliArgs,
            debug: context.debug,
          }
        : undefined,
      signal: context.signal,
      onLogOpen: (opened) => (writer = opened),
      onEvent: (event) => {
        for (const line of trace.push(event)) {
          lines.push(line);
          if (context.debug) {
            writer?.debug(line);
            context.onTrace?.(line);
          }
        }
      },
    });
  } catch (error) {
    const { ConfigError } = await import("../errors.js");
    if (error instanceof ConfigError) {
      throw new ApiError(500, `the team cannot run: ${error.message}`, {
        code: "team_setup_failed",
      });
    }
    throw error;
  }
  lines.push(...trace.flush());
  const { state } = result;
  const logDir =
    result.runDir === undefined ? undefined : relative(context.cwd, result.runDir) || result.runDir;
  context.onRunEnd?.(state, logDir);
  if (state.endReason !== "completed" || state.finalAnswer === null) {
    throw runFailure(state, context.signal, logDir);
  }
  return {
    body: {
      id: `chatcmpl-${randomBytes(12).toString("hex")}`,
      object: "chat.completion",
      created: Math.floor(context.now() / 1000),
      model: team.id,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: state.finalAnswer,
            reasoning_content: lines.join("\n"),
          },
          finish_reason: "stop",
        },
      ],
      usage: usageOf(state),
    },
    logDir,
  };
}

/** The run's token totals in OpenAI's `usage` shape. */
export function usageOf(state: RunState): CompletionUsage {
  const usage = state.totals.usage;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** The error for a run that ended without a final answer. */
function runFailure(state: RunState, signal: AbortSignal, logDir: string | undefined): ApiError {
  const logs = logDir === undefined ? "" : ` (run log: ${logDir})`;
  if (state.endReason === "timeout" || isTimeout(signal)) {
    const why = isTimeout(signal)
      ? "the run exceeded the server's request timeout (coord serve --request-timeout)"
      : `${state.error ?? "the run timed out"} (raise timeout_settings.orchestrator_timeout_seconds in the config)`;
    return new ApiError(504, `${why}${logs}`, { code: "run_timeout" });
  }
  if (state.endReason === "interrupted") {
    const why = typeof signal.reason === "string" ? signal.reason : "the run was stopped";
    return new ApiError(503, `${why}${logs}`, { code: "run_interrupted" });
  }
  const errors = state.agents
    .filter((agent) => agent.lastError)
    .map((agent) => `${agent.id}: ${oneLine(agent.lastError!.message, 300)}`);
  return new ApiError(
    500,
    `every agent failed${errors.length > 0 ? `: ${errors.join("; ")}` : ""}${logs}`,
    { code: "run_failed" },
  );
}

function isTimeout(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return signal.aborted && reason instanceof DOMException && reason.name === "TimeoutError";
}
