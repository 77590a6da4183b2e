/**
 * One chat completion: runs the team on the request as one turn (`runTurn`, src/runner/turn.ts:
 * the same trace, run log, debug log and lifecycle as the one-shot run, the chat and `--web`;
 * a request is no memory session, its conversation comes in its `messages`) and renders the
 * finished run as an OpenAI `chat.completion` object (spec section 4.3): `content` is the final
 * answer, `reasoning_content` the run's trace lines (docs/coordination.md "Events"), `usage` the
 * run's token totals (the same figures as the run's metrics.json `totals.tokens`). A degraded run
 * (agents removed, the budget reached, the timeout; docs/real-models.md) still answers, and says
 * why in `coord.degraded` and in the trace's `[system] Degraded: …` lines.
 */
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { relative } from "node:path";
import type { Clock } from "../clock.js";
import { stopReasonOf } from "../engine/index.js";
import { type RunningTurn, runTurn, type TurnTracing } from "../runner/index.js";
import { limitsReachedJson, type LimitReachedJson, type RunState } from "../session/index.js";
import { failureLine, traceSubscriber } from "../ui/plain/index.js";
import { ApiError } from "./api-error.js";
import type { ChatRequest } from "./chat-request.js";
import type { ServedTeam } from "./served-team.js";
import { formatInstruction, structuredAnswer } from "./structured-output.js";

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
  /**
   * coord's own extension, present only when the run was degraded: why, one line per reason
   * (`run-end.degraded`), and the budget limits reached. OpenAI clients ignore it.
   */
  coord?: { degraded: string[]; limits_reached: LimitReachedJson[] };
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
  /** Stops the run: the client gone (interrupted), the request timeout (a TimeoutError), a shutdown (`RunStopped("shutdown")`). */
  signal: AbortSignal;
  /** Epoch ms. */
  now: () => number;
  /** Called with each trace line as the run goes (streaming). */
  onLine?: ((line: string) => void) | undefined;
  /** Called with each trace line when `debug` is on. */
  onTrace?: ((line: string) => void) | undefined;
  /**
   * Told of problems that do not stop the run (the run log cannot be written, a subscriber
   * threw), one line each, as every door's turn tells them.
   */
  onWarning?: ((line: string) => void) | undefined;
  /** Called once the run ended, with its final state (observability, tests). */
  onRunEnd?: ((state: RunState, logDir: string | undefined) => void) | undefined;
  /** The request's trace, when the server traces: the run's trace is its child (its id goes in the run log). */
  tracing?: TurnTracing | undefined;
  /** Time of the run (its timeouts, the retries' backoff, the log); default the system clock. */
  clock?: Clock | undefined;
  /** `fetch` for the team's hosted providers; default the global `fetch`. */
  fetch?: typeof fetch | undefined;
}

/** A finished completion and where its run log is. */
export interface CompletionResult {
  body: ChatCompletion;
  /** The `log_…` directory relative to the server's working directory, when logging. */
  logDir: string | undefined;
  /** Why the answer is degraded, one line per reason; empty for a clean run. */
  degraded: readonly string[];
}

/**
 * Runs the team on the request and builds the response.
 * @throws ApiError 502 when `response_format` asked for JSON and the final answer
 *   is not (`./structured-output.ts`); 500 when the team cannot be set up (a missing key, an unusable backend) or
 *   every agent failed (the message lists the agents' errors); 504 when the run timed out
 *   without an answer (the config's orchestrator timeout or the server's request timeout); 503
 *   when it was stopped (the server shutting down past its grace period, or the client gone).
 */
export async function runChatCompletion(
  team: ServedTeam,
  request: ChatRequest,
  context: CompletionContext,
): Promise<CompletionResult> {
  const lines: string[] = [];
  const { responseFormat } = request.options;
  const turn = await startTurn(team, request, context, (line) => {
    lines.push(line);
    context.onLine?.(line);
  });
  const result = await turn.finished;
  const { state } = result;
  const logDir =
    result.runDir === undefined ? undefined : relative(context.cwd, result.runDir) || result.runDir;
  context.onRunEnd?.(state, logDir);
  if (state.endReason !== "completed" || state.finalAnswer === null) {
    throw runFailure(state, context.signal, logDir);
  }
  const content =
    responseFormat === undefined
      ? state.finalAnswer
      : structuredAnswer(
          state.finalAnswer,
          responseFormat,
          logDir === undefined ? "" : ` (run log: ${logDir})`,
        );
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
            content,
            reasoning_content: lines.join("\n"),
          },
          finish_reason: "stop",
        },
      ],
      usage: usageOf(state),
      ...(state.degraded.length > 0
        ? { coord: { degraded: [...state.degraded], limits_reached: limitsReachedJson(state) } }
        : {}),
    },
    logDir,
    degraded: state.degraded,
  };
}

/**
 * Starts the request's run as one turn (src/runner/turn.ts) without a memory session: the
 * request's earlier messages are its history, its system message and the JSON instruction of
 * `response_format` go to every agent, and each trace line goes to `onLine` (and, with `debug`,
 * to coord_debug.log and {@link CompletionContext.onTrace}).
 * @throws ApiError 500 `team_setup_failed` when the team cannot be set up (a ConfigError).
 */
async function startTurn(
  team: ServedTeam,
  request: ChatRequest,
  context: CompletionContext,
  onLine: (line: string) => void,
): Promise<RunningTurn> {
  const { responseFormat } = request.options;
  const system = [request.systemMessage, responseFormat && formatInstruction(responseFormat)]
    .filter((part) => part !== undefined)
    .join("\n\n");
  let writer: { debug(message: string): void } | undefined;
  const debugLines = traceSubscriber((line) => {
    writer?.debug(line);
    context.onTrace?.(line);
  });
  try {
    return await runTurn({
      prepared: {
        config: team.config,
        configPath: team.path,
        env: context.env,
        mode: team.mode,
        agentIndexes: team.agentIndexes,
      },
      question: request.question,
      history: request.history,
      io: {
        cwd: context.cwd,
        home: context.env.HOME ?? homedir(),
        version: context.version,
        argv: context.cliArgs,
      },
      logs: context.logRoot !== undefined,
      logRoot: context.logRoot,
      debug: context.debug,
      tracing: context.tracing,
      signal: context.signal,
      start: {
        ...(system !== "" ? { extraSystemMessage: system } : {}),
        ...(context.clock ? { clock: context.clock } : {}),
        ...(context.fetch ? { fetch: context.fetch } : {}),
      },
      onStarted: ({ handle }) => (writer = handle.writer),
      subscribers: [traceSubscriber(onLine), ...(context.debug ? [debugLines] : [])],
      subscriberName: "a subscriber of the run",
      warn: (line) => context.onWarning?.(line),
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

/**
 * The error for a run that ended without a final answer, by how it ended: a timeout is a 504
 * (saying which time limit to raise), an interrupt (the client went away) or a shutdown a 503,
 * a failure a 500 with the agents' errors.
 */
function runFailure(state: RunState, signal: AbortSignal, logDir: string | undefined): ApiError {
  const logs = logDir === undefined ? "" : ` (run log: ${logDir})`;
  switch (state.endReason) {
    case "timeout": {
      // Only the wording depends on which limit it was: the server's own or the config's.
      const why =
        signal.aborted && stopReasonOf(signal) === "timeout"
          ? "the run exceeded the server's request timeout (coord serve --request-timeout)"
          : failureLine(state, { flags: false });
      return new ApiError(504, `${why}${logs}`, { code: "run_timeout" });
    }
    case "shutdown":
      // Another instance (or this one restarted) can answer it: the run never finished.
      return new ApiError(503, `the server is shutting down${logs}`, {
        code: "run_interrupted",
        retryable: true,
      });
    case "interrupted":
      return new ApiError(503, `the run was stopped (the client went away)${logs}`, {
        code: "run_interrupted",
      });
    case "completed":
    case "failed":
    case null:
      return new ApiError(500, `${failureLine(state, { flags: false })}${logs}`, {
        code: "run_failed",
      });
  }
}
