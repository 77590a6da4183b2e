/**
 * One run of `coord eval`: a prepared config run on one question in a given mode, as an
 * ordinary logged run (src/runner: `runTeam`), under `<eval dir>/logs/<group>/log_…/`. Its model
 * calls, tokens and cost come from the run's `usage` events (the reducer's totals).
 */
import { relative } from "node:path";
import { join } from "node:path";
import { childPath } from "../safe-name.js";
import { type ModeChoice, type PreparedRun, runLogOptions, runTeam } from "../runner/index.js";
import { costUsdOf, type RunState, wallTimeMs } from "../session/index.js";
import { ANSWER_TAIL_CHARS, type RunRecord } from "./results-file.js";

/** The fields of a run's record that the run itself gives (src/eval/results-file.ts). */
export type RunFacts = Pick<
  RunRecord,
  | "answer"
  | "status"
  | "calls"
  | "input_tokens"
  | "output_tokens"
  | "cost_usd"
  | "wall_ms"
  | "log_dir"
  | "error"
  | "answers"
  | "winning_answer"
>;

/** Spend of a run in flight: its running totals (every request sent, failed ones included). */
export interface RunSpend {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** How to start one run: its mode, its agents (indexes into the config) and its log folder. */
export interface RunRequest {
  mode: ModeChoice["mode"];
  agentIndexes: readonly number[];
  /** Folder under `<eval dir>/logs/`. */
  logGroup: string;
  question: string;
  signal: AbortSignal;
  /** Told the run's running totals after each of its events (for the progress line). */
  onSpend?: (spend: RunSpend) => void;
}

/** Runs one question; never throws for agent or provider failures (they are in `status`). */
export type RunQuestion = (request: RunRequest) => Promise<RunFacts>;

/** Options of {@link createRunQuestion}. */
export interface TeamRunnerOptions {
  prepared: PreparedRun;
  /** The eval directory: logs go under `<evalDir>/logs/`, and log dirs are stored relative to it. */
  evalDir: string;
  /** False for `--no-logs`. */
  logs: boolean;
  cwd: string;
  version: string;
  argv: readonly string[];
  /** Told once per run of a log write failure. */
  onLogError?: (error: Error) => void;
}

/**
 * A {@link RunQuestion} over a prepared config.
 * @throws ConfigError from the first run when a key or model file is missing (before any agent starts).
 */
export function createRunQuestion(options: TeamRunnerOptions): RunQuestion {
  const { prepared, evalDir } = options;
  return async (request) => {
    const log = runLogOptions(prepared, {
      enabled: options.logs,
      root: childPath(join(evalDir, "logs"), request.logGroup),
      cwd: options.cwd,
      version: options.version,
      argv: options.argv,
      debug: false,
      ...(options.onLogError ? { onError: options.onLogError } : {}),
    });
    const result = await runTeam({
      ...prepared,
      mode: request.mode,
      agentIndexes: [...request.agentIndexes],
      question: request.question,
      cwd: options.cwd,
      log,
      signal: request.signal,
      ...(request.onSpend
        ? {
            subscribers: [
              (_event: unknown, state: RunState) =>
                request.onSpend!({
                  calls: state.totals.usage.modelCalls,
                  inputTokens: state.totals.usage.inputTokens,
                  outputTokens: state.totals.usage.outputTokens,
                }),
            ],
          }
        : {}),
    });
    return runFacts(
      result.state,
      result.logDir === undefined ? null : relative(evalDir, result.logDir),
    );
  };
}

/** A finished run's record fields, from its state. */
export function runFacts(state: RunState, logDir: string | null): RunFacts {
  const usage = state.totals.usage;
  const status = state.endReason ?? "failed";
  const answer = state.finalAnswer;
  return {
    answer,
    status,
    calls: usage.modelCalls,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cost_usd: costUsdOf(usage),
    wall_ms: wallTimeMs(state),
    log_dir: logDir,
    error: status === "completed" ? null : failureText(state),
    ...teamAnswers(state),
  };
}

/**
 * A team run's answers and winning answer, each its last {@link ANSWER_TAIL_CHARS} characters;
 * nothing for a run of one agent.
 */
function teamAnswers(state: RunState): Pick<RunFacts, "answers" | "winning_answer"> {
  if (state.agents.length < 2) return {};
  const tail = (text: string) => text.slice(-ANSWER_TAIL_CHARS);
  const winner = state.winner
    ? state.answers.find((answer) => answer.label === state.winner!.label)
    : undefined;
  return {
    answers: state.answers.map((answer) => tail(answer.content)),
    winning_answer: winner === undefined ? null : tail(winner.content),
  };
}

function failureText(state: RunState): string {
  const errors = state.agents
    .filter((agent) => agent.lastError)
    .map((agent) => `${agent.id}: ${agent.lastError!.message}`);
  const text = [state.error, ...errors].filter((part) => part).join("; ");
  return (text || `the run ended ${state.endReason ?? "without a run-end"}`)
    .replace(/\s+/g, " ")
    .slice(0, 500);
}
