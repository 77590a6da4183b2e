/**
 * What a single query shows while it runs, chosen once from the flags and the terminal:
 *
 * - `--automation`: the fixed `KEY: value` lines of src/ui/plain/automation.ts, nothing else;
 * - stdout is a TTY (and `--no-display` is not given, `ui.display_type: rich_terminal`): the Ink
 *   live view (src/ui/terminal/live-run.tsx), lazy-imported;
 * - stderr is a TTY: the compact live status block on stderr (src/ui/plain/live-status.ts);
 * - otherwise: labelled trace lines on stderr (`--no-display`, pipes, CI).
 *
 * Every variant renders only from the events and the reducer's state (STYLE.md rules 1 and 3).
 */
import { join } from "node:path";
import type { CoordEvent } from "../events/events.js";
import type { RetryNotice } from "../runner/run-team.js";
import type { RunState } from "../session/reducer.js";
import type { LogWriter } from "../store/log-writer.js";
import { createAutomationOutput } from "../ui/plain/automation.js";
import { createLiveStatus, type LiveStatus } from "../ui/plain/live-status.js";
import { createTraceFormatter, oneLine } from "../ui/plain/trace-lines.js";
import type { CommandIO } from "./run.js";

/** A running display. */
export interface RunDisplay {
  /** `plain`, `live-status`, `ink` or `automation`. */
  readonly kind: "plain" | "live-status" | "ink" | "automation";
  /** The run log is open (before the first event). */
  logOpened(writer: LogWriter, question: string): void;
  event(event: CoordEvent, state: RunState, writer: LogWriter | undefined): void;
  retry(notice: RetryNotice, writer: LogWriter | undefined): void;
  /** The run is over: leave the screen clean before the answer is printed. */
  close(state: RunState): Promise<void>;
  /** True when the final answer already went to stdout as it streamed. */
  streamedFinal(): boolean;
  /** `--automation`: prints the end lines. */
  automationEnd?(state: RunState, answerFile: string | undefined): void;
}

/** The flags the display depends on. */
export interface DisplayFlags {
  display: boolean;
  debug: boolean;
  automation?: boolean | undefined;
}

/**
 * Chooses and creates the display.
 * @param rich `ui.display_type` is `rich_terminal`.
 */
export async function createRunDisplay(
  flags: DisplayFlags,
  io: CommandIO,
  rich: boolean,
): Promise<RunDisplay> {
  if (flags.automation) return automationDisplay(io, flags);
  if (flags.display && rich && io.stdout.isTTY === true) {
    const { mountLiveRun } = await import("../ui/terminal/live-run.js");
    // Mounted at the first event: a run that fails before it starts (a missing key) shows only
    // its error, not an empty view.
    let live: ReturnType<typeof mountLiveRun> | undefined;
    const lines = createTraceFormatter({ maxTextLength: 400 });
    return {
      kind: "ink",
      logOpened: () => undefined,
      event(event, state, writer) {
        if (flags.debug) for (const line of lines.push(event)) writer?.debug(line);
        live ??= mountLiveRun({ stdout: io.stdout as NodeJS.WriteStream });
        live.update(state);
      },
      retry: (notice, writer) => writer?.debug(retryLine(notice)),
      close: async (state) => live?.finish(state),
      streamedFinal: () => false,
    };
  }
  return textDisplay(flags, io, rich);
}

function retryLine(notice: RetryNotice): string {
  return `[orchestrator] ${notice.agentId}: ${oneLine(notice.error.message, 200)}; retry ${notice.attempt} in ${(notice.delayMs / 1000).toFixed(1)} s`;
}

function automationDisplay(io: CommandIO, flags: DisplayFlags): RunDisplay {
  const output = createAutomationOutput(io.stdout);
  const lines = createTraceFormatter({ maxTextLength: 400 });
  return {
    kind: "automation",
    logOpened(writer, question) {
      output.start({
        logDir: writer.logDir,
        statusFile: join(writer.dir, "status.json"),
        question,
      });
    },
    event(event, state, writer) {
      if (event.type === "run-start")
        output.start({ logDir: undefined, statusFile: undefined, question: state.question });
      if (flags.debug) for (const line of lines.push(event)) writer?.debug(line);
    },
    retry: (notice, writer) => writer?.debug(retryLine(notice)),
    close: async () => undefined,
    streamedFinal: () => true,
    automationEnd: (state, answerFile) => output.end(state, { answerFile }),
  };
}

/** Progress on stderr: the live block on a TTY, trace lines otherwise; `--debug` mirrors them. */
function textDisplay(flags: DisplayFlags, io: CommandIO, rich: boolean): RunDisplay {
  const live = flags.display && rich && io.stderr.isTTY === true;
  const status: LiveStatus | undefined = live ? createLiveStatus(io.stderr) : undefined;
  const lines = createTraceFormatter({ maxTextLength: 400 });
  const streamFinal = status !== undefined && io.stdout.isTTY === true;
  let streamedFinal = false;
  return {
    kind: status ? "live-status" : "plain",
    logOpened: () => undefined,
    event(event, state, writer) {
      const traced = !status || flags.debug ? lines.push(event) : [];
      if (flags.debug) for (const line of traced) writer?.debug(line);
      if (!status) {
        for (const line of traced) io.stderr.write(`${line}\n`);
        return;
      }
      if (
        event.type === "final-start" ||
        event.type === "final-answer" ||
        event.type === "run-end"
      ) {
        status.clear();
      } else {
        status.update(state);
      }
      if (event.type === "final-start") io.stderr.write(`${winnerLine(state)}\n`);
      if (streamFinal && event.type === "final-delta") {
        io.stdout.write(event.text);
        streamedFinal = true;
      }
    },
    retry(notice, writer) {
      const line = retryLine(notice);
      writer?.debug(line);
      if (!status) io.stderr.write(`${line}\n`);
    },
    close: async () => status?.clear(),
    streamedFinal: () => streamedFinal,
  };
}

/** `Winner: a (agent1.1, 3/3 votes)`: what the user sees before the final answer. */
export function winnerLine(state: RunState): string {
  const winner = state.winner;
  if (!winner) return "";
  const agent = state.agents.find((candidate) => candidate.anonId === winner.anonId);
  const votes = winner.basis === "votes" ? `, ${winner.votes}/${state.agents.length} votes` : "";
  return `Winner: ${agent?.id ?? winner.anonId} (${winner.label}${votes}${winner.tieBroken ? ", tie broken" : ""})`;
}
