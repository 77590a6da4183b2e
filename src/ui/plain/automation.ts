/**
 * `--automation` output: a fixed set of `KEY: value` lines on stdout for scripts and agents that
 * drive coord, and nothing else (streamed text and the answer stay out of it):
 *
 * ```
 * LOG_DIR: <the log_… directory, or "none" with --no-logs>
 * STATUS: <the turn's status.json, rewritten atomically while the run goes on, or "none">
 * QUESTION: <the question on one line>
 * TRACE_ID: <the run's OpenTelemetry trace id; only with --tracing / COORD_TRACING_ENABLED>
 * SUBTASK: <agent id>: <its subtask on one line>          (decomposition mode, one per agent)
 * STOP: <agent id> <complete|blocked>: <summary on one line> (decomposition mode, each stop)
 * LIMIT: <run|agent id> <calls|tokens|cost> <used>/<max>   (a budget limit reached, as it happens)
 * PLAN_DIR: <the plan's folder>   (planning modes, each run; src/commands/plan.ts prints them)
 * PLAN_ID: <the plan's id>
 * DEGRADED: <one reason on one line>   (one per reason the run's answer or failure is degraded)
 * WINNER: <the winning agent's id, or "none">
 * ANSWER_FILE: <final_answer.md (or the --output-file path), or "none" without an answer>
 * DURATION: <seconds with one decimal, e.g. 12.3s>
 * COMPLETED: <true when the run completed with an answer, else false>
 * ```
 *
 * The exit code says how the run ended (docs/architecture.md "Exit codes"); errors go to stderr.
 */
import type { CoordEvent } from "../../events/index.js";
import { type RunState, wallTimeMs } from "../../session/index.js";
import { limitText, oneLine } from "./trace-lines.js";

/** The automation lines of one run. */
export interface AutomationOutput {
  /**
   * Prints LOG_DIR, STATUS, QUESTION and, for a traced run, TRACE_ID; call once the log is open
   * (or at once without logs).
   */
  start(info: {
    logDir: string | undefined;
    statusFile: string | undefined;
    question: string;
    traceId?: string | undefined;
  }): void;
  /** Prints the line an event makes, if any: SUBTASK and STOP (decomposition mode), LIMIT. */
  event(event: CoordEvent): void;
  /** Prints DEGRADED (one per reason), WINNER, ANSWER_FILE, DURATION and COMPLETED. */
  end(state: RunState, info: { answerFile: string | undefined }): void;
}

/** @param out where the lines go (stdout). */
export function createAutomationOutput(out: { write(text: string): unknown }): AutomationOutput {
  let started = false;
  return {
    start({ logDir, statusFile, question, traceId }) {
      if (started) return;
      started = true;
      out.write(
        `LOG_DIR: ${logDir ?? "none"}\nSTATUS: ${statusFile ?? "none"}\nQUESTION: ${oneLine(question)}\n` +
          (traceId !== undefined ? `TRACE_ID: ${traceId}\n` : ""),
      );
    },
    event(event) {
      if (event.type === "subtask")
        out.write(`SUBTASK: ${event.agentId ?? event.anonId}: ${oneLine(event.subtask)}\n`);
      if (event.type === "stop")
        out.write(`STOP: ${event.agentId ?? "?"} ${event.status}: ${oneLine(event.summary)}\n`);
      if (event.type === "limit-reached")
        out.write(
          `LIMIT: ${event.scope === "run" ? "run" : (event.agentId ?? "?")} ${limitText(event)}\n`,
        );
    },
    end(state, { answerFile }) {
      const completed = state.endReason === "completed" && state.finalAnswer !== null;
      out.write(
        [
          ...state.degraded.map((reason) => `DEGRADED: ${oneLine(reason)}`),
          `WINNER: ${state.winner?.agentId ?? "none"}`,
          `ANSWER_FILE: ${completed ? (answerFile ?? "none") : "none"}`,
          `DURATION: ${(wallTimeMs(state) / 1000).toFixed(1)}s`,
          `COMPLETED: ${completed}`,
        ].join("\n") + "\n",
      );
    },
  };
}
