/**
 * What a single query shows while it runs, chosen once from the flags and the terminal:
 *
 * - `--automation`: the fixed `KEY: value` lines of src/ui/plain/automation.ts, nothing else;
 * - `--json`: nothing while it runs (the result is one JSON object at the end, `run-json.ts`);
 * - `--json-events`: each event as one NDJSON line on stdout as it comes (./json-events-sink.ts),
 *   nothing else there; it has the `automation` kind, whose contract is that stdout is the
 *   display's alone (run.ts prints neither the answer nor the closing lines there);
 * - stdout is a TTY Ink can redraw (no `CI` variable; src/commands/ink-can-draw.ts) (and
 *   `--no-display` is not given, `ui.display_type: rich_terminal`): the Ink
 *   live view (src/ui/terminal/live-run.tsx), lazy-imported;
 * - stderr is a TTY: the compact live status block on stderr (src/ui/plain/live-status.ts);
 * - otherwise: labelled trace lines on stderr (`--no-display`, pipes, CI).
 *
 * Every variant is a subscriber of the live run: it renders only from the events and the
 * run's state (CONTRIBUTING.md rules 1 and 3).
 */
import { join } from "node:path";
import type { CoordEvent } from "../events/index.js";
import { type RunState, tieText } from "../session/index.js";
import {
  createAutomationOutput,
  createLiveStatus,
  type LiveStatus,
  traceSubscriber,
} from "../ui/plain/index.js";
import { inkCanDraw } from "./ink-can-draw.js";
import type { CommandIO } from "./io.js";

/** Where the run is logged, told to the display before the first event. */
export interface RunStartInfo {
  question: string;
  /** The `log_…` directory and the attempt directory, when logging. */
  runDir: string | undefined;
  logDir: string | undefined;
  /** The run's trace id, when traced. */
  traceId?: string | undefined;
}

/** A running display. */
export interface RunDisplay {
  /** `plain`, `live-status`, `ink`, `automation` or `json` (nothing shown while it runs). */
  readonly kind: "plain" | "live-status" | "ink" | "automation" | "json";
  /** The run started (its log is open); before the first event. */
  started(info: RunStartInfo): void;
  /** The live run's subscriber. */
  event(event: CoordEvent, state: RunState): void;
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
  automation?: boolean | undefined;
  json?: boolean | undefined;
  /** `--json-events`: the events as NDJSON on stdout. */
  jsonEvents?: boolean | undefined;
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
  if (flags.automation) return automationDisplay(io);
  if (flags.jsonEvents) return jsonEventsDisplay(io);
  if (flags.json) {
    return {
      kind: "json",
      started: () => undefined,
      event: () => undefined,
      close: async () => undefined,
      streamedFinal: () => false,
    };
  }
  if (flags.display && rich && inkCanDraw(io.stdout)) {
    const { mountLiveRun } = await import("../ui/terminal/live-run.js");
    // Mounted at the first event: a run that fails before it starts (a missing key) shows only
    // its error, not an empty view.
    let live: ReturnType<typeof mountLiveRun> | undefined;
    return {
      kind: "ink",
      started: () => undefined,
      event(_event, state) {
        live ??= mountLiveRun({
          stdout: io.stdout as NodeJS.WriteStream,
          // Read only in execution mode (Ctrl+P is blocked there, with a message).
          ...(state.mode === "execution" ? { stdin: process.stdin } : {}),
        });
        live.update(state);
      },
      close: async (state) => live?.finish(state),
      streamedFinal: () => false,
    };
  }
  return textDisplay(flags, io, rich);
}

function automationDisplay(io: CommandIO): RunDisplay {
  const output = createAutomationOutput(io.stdout);
  let traceId: string | undefined;
  return {
    kind: "automation",
    started(info) {
      traceId = info.traceId;
      if (info.runDir === undefined || info.logDir === undefined) return;
      output.start({
        logDir: info.runDir,
        statusFile: join(info.logDir, "status.json"),
        question: info.question,
        traceId,
      });
    },
    event(event, state) {
      if (event.type === "run-start")
        output.start({
          logDir: undefined,
          statusFile: undefined,
          question: state.question,
          traceId,
        });
      output.event(event);
    },
    close: async () => undefined,
    streamedFinal: () => true,
    automationEnd: (state, answerFile) => output.end(state, { answerFile }),
  };
}

/** `--json-events`: every event on stdout as it comes; the answer is in its `final-*` events. */
async function jsonEventsDisplay(io: CommandIO): Promise<RunDisplay> {
  const { createJsonEventsSink } = await import("./json-events-sink.js");
  const sink = await createJsonEventsSink((line) => io.stdout.write(line));
  return {
    kind: "automation",
    started: () => undefined,
    event: (event) => sink.event(event),
    close: async () => sink.flush(),
    streamedFinal: () => true,
    automationEnd: () => undefined,
  };
}

/** Progress on stderr: the live block on a TTY, trace lines otherwise. */
function textDisplay(flags: DisplayFlags, io: CommandIO, rich: boolean): RunDisplay {
  const live = flags.display && rich && io.stderr.isTTY === true;
  const status: LiveStatus | undefined = live ? createLiveStatus(io.stderr) : undefined;
  const trace = traceSubscriber((line) => io.stderr.write(`${line}\n`), { maxTextLength: 400 });
  const streamFinal = status !== undefined && io.stdout.isTTY === true;
  let streamedFinal = false;
  return {
    kind: status ? "live-status" : "plain",
    started: () => undefined,
    event(event, state) {
      if (!status) return trace(event);
      if (event.type === "winner" || event.type === "final-start" || event.type === "run-end") {
        status.clear();
      } else if (event.type !== "final-answer") {
        status.update(state);
      }
      if (event.type === "winner") io.stderr.write(`${winnerLine(state)}\n`);
      if (streamFinal && event.type === "final-delta") {
        io.stdout.write(event.text);
        streamedFinal = true;
      }
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
  if (winner.basis === "decomposition")
    return `Presenter: ${agent?.id ?? winner.anonId} (integrates every part)`;
  const votes = winner.basis === "votes" ? `, ${winner.votes}/${state.agents.length} votes` : "";
  const tie = tieText(winner);
  return `Winner: ${agent?.id ?? winner.anonId} (${winner.label}${votes}${tie ? `, ${tie}` : ""})`;
}
