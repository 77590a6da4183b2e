/** `coord viewer [LOG_DIR] …` (spec section 4.2; docs/sharing.md "coord viewer"). */
import type { Command } from "commander";
import { ConfigError } from "../../errors.js";
import { integerAtLeast, positiveInteger, positiveNumber } from "../integer-options.js";
import { type CommandModule, processIO, withStopSignal } from "./define.js";

/** Default port of `coord viewer --web`. */
export const DEFAULT_VIEWER_PORT = 8001;

/** `coord viewer`'s options as commander parses them. */
export interface ViewerOptions {
  turn?: number;
  attempt?: number;
  replaySpeed?: number;
  pick?: boolean;
  follow: boolean;
  web?: boolean;
  port?: number;
}

export const viewerCommand: CommandModule<ViewerOptions, [string | undefined]> = {
  name: "viewer",
  description:
    "replay a run log in the live terminal view, read-only; follows a run still being written (docs/sharing.md)",
  declare: (command: Command) =>
    void command
      .argument(
        "[log_dir]",
        "a log directory (log_…), turn_<n> or attempt_<n> directory (default: the most recent run in agent_outputs/ or COORD_LOG_DIR)",
      )
      .option(
        "--turn <n>",
        "turn of a multi-turn log (default: the latest)",
        positiveInteger("--turn"),
      )
      .option(
        "--attempt <n>",
        "attempt of the turn (default: the latest)",
        positiveInteger("--attempt"),
      )
      .option(
        "--replay-speed <n>",
        "replay at the recorded pace: 1 real time, 2 twice as fast, 0.5 half (default: instant)",
        positiveNumber("--replay-speed"),
      )
      .option("--pick", "choose among the recent runs (time, status, winner, question)")
      .option("--no-follow", "show what the log holds now, even if the run has not ended")
      .option("--web", "serve the viewer in a browser (a terminal in the page) instead")
      .option(
        "--port <n>",
        `port of the --web server on 127.0.0.1, 0 for a free one (default: ${DEFAULT_VIEWER_PORT})`,
        integerAtLeast("--port", 0),
      )
      .addHelpText(
        "after",
        `
Keys: q, Esc or Ctrl+C quit. When stdout is not a terminal, the run's trace lines are printed.
Examples:
  coord viewer                                   the most recent run, at once
  coord viewer --replay-speed 1                  in real time
  coord viewer agent_outputs/log_20250101_120000 --turn 2
  coord viewer --pick
  coord viewer --web --port 8001                 then open http://127.0.0.1:8001/`,
      ),
  async run([logDir], options, context) {
    if (options.port !== undefined && options.web !== true) {
      throw new ConfigError("--port goes with --web: coord viewer --web --port N");
    }
    if (options.pick === true && logDir !== undefined) {
      throw new ConfigError("--pick chooses the log: give either LOG_DIR or --pick, not both");
    }
    const { viewerCommand } = await import("../viewer.js");
    return withStopSignal((signal) =>
      viewerCommand(
        {
          logDir,
          turn: options.turn,
          attempt: options.attempt,
          replaySpeed: options.replaySpeed,
          pick: options.pick === true,
          follow: options.follow,
          web: options.web === true,
          port: options.port ?? DEFAULT_VIEWER_PORT,
        },
        { ...processIO(context.version), signal },
      ),
    );
  },
};
