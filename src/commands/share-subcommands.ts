/**
 * Registration of `viewer`, `export` and `shares` on the root program (spec §4.2,
 * docs/sharing.md). Only commander is loaded here: each action imports its command module when
 * it runs, so `coord --help` stays fast.
 */
import { homedir } from "node:os";
import type { Command } from "commander";
import { ConfigError } from "../errors.js";
import { integerAtLeast, positiveInteger, positiveNumber } from "./integer-options.js";

/** Default port of `coord viewer --web`. */
export const DEFAULT_VIEWER_PORT = 8001;

/** The IO every action passes on. */
function commandIO(version: string) {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    home: process.env.HOME ?? homedir(),
    argv: process.argv.slice(2),
    version,
  };
}

/** Runs `body` with a signal that Ctrl+C (SIGINT) and SIGTERM abort. */
async function withStopSignal<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    return await body(controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

/** `coord viewer [LOG_DIR] …` (docs/sharing.md "coord viewer"). */
export function addViewerCommand(program: Command, version: string): void {
  program
    .command("viewer")
    .description(
      "replay a run log in the live terminal view, read-only; follows a run still being written (docs/sharing.md)",
    )
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
    )
    .action(async (logDir: string | undefined, options: Record<string, unknown>) => {
      if (options.port !== undefined && options.web !== true) {
        throw new ConfigError("--port goes with --web: coord viewer --web --port N");
      }
      if (options.pick === true && logDir !== undefined) {
        throw new ConfigError("--pick chooses the log: give either LOG_DIR or --pick, not both");
      }
      const { viewerCommand } = await import("./viewer.js");
      process.exitCode = await withStopSignal((signal) =>
        viewerCommand(
          {
            logDir,
            turn: options.turn as number | undefined,
            attempt: options.attempt as number | undefined,
            replaySpeed: options.replaySpeed as number | undefined,
            pick: options.pick === true,
            follow: options.follow !== false,
            web: options.web === true,
            port: (options.port as number | undefined) ?? DEFAULT_VIEWER_PORT,
          },
          { ...commandIO(version), signal },
        ),
      );
    });
}

/** `coord export [LOG_NAME|PATH] …` (docs/sharing.md "coord export"). */
export function addExportCommand(program: Command, version: string): void {
  program
    .command("export")
    .description(
      "share a run log as a secret GitHub gist (via gh) and print its Share URL (docs/sharing.md)",
    )
    .argument(
      "[log]",
      "a log name (log_…) in agent_outputs/ (or COORD_LOG_DIR) or a path to a log, turn or attempt directory (default: the most recent run)",
    )
    .option("--turns <which>", "all (default), latest, N or N-M")
    .option("--no-workspace", "leave out workspace files (sub-directories of each attempt)")
    .option("--dry-run", "list what would be uploaded and skipped; upload nothing")
    .option("--yes", "do not ask before uploading (needed when stdin is not a terminal)")
    .option("--json", "one JSON document on stdout (shape: docs/sharing.md)")
    .addHelpText(
      "after",
      `
Needs the GitHub CLI, logged in: gh auth login. Secrets are redacted in everything uploaded.
The link is {viewer_url}/?gist=<id>: COORD_VIEWER_URL, sharing.viewer_url in the config, else
https://coord-cli.github.io/share.
Examples:
  coord export                                   the most recent run
  coord export --dry-run                         what would be uploaded
  coord export log_20250101_120000 --turns 2-3 --yes`,
    )
    .action(async (target: string | undefined, options: Record<string, unknown>) => {
      const { exportCommand } = await import("./export.js");
      const { parseTurnSpec } = await import("../logs/share-bundle.js");
      let turns;
      try {
        turns = options.turns === undefined ? undefined : parseTurnSpec(options.turns as string);
      } catch (error) {
        throw new ConfigError((error as Error).message);
      }
      process.exitCode = await exportCommand(
        {
          target,
          turns,
          workspace: options.workspace !== false,
          dryRun: options.dryRun === true,
          yes: options.yes === true,
          json: options.json === true,
        },
        commandIO(version),
      );
    });
}

/** `coord shares list|delete` (docs/sharing.md "coord shares list|delete"). */
export function addSharesCommand(program: Command, version: string): void {
  const shares = program
    .command("shares")
    .description("list (default) or delete the runs you shared with coord export (via gh)")
    .helpCommand(false);
  shares
    .command("list", { isDefault: true })
    .description("your shared runs: id, date, question, share URL")
    .option(
      "--limit <n>",
      "look through your N most recent gists (default 100)",
      positiveInteger("--limit"),
    )
    .option("--json", "a JSON array of {id, date, question, url, gist_url}")
    .action(async (options: Record<string, unknown>) => {
      const { listSharesCommand } = await import("./shares.js");
      process.exitCode = await listSharesCommand(
        { limit: (options.limit as number | undefined) ?? 100, json: options.json === true },
        commandIO(version),
      );
    });
  shares
    .command("delete")
    .description("delete one shared run after confirmation")
    .argument("<gist_id>", "the gist id (or its share URL or gist URL)")
    .option("--yes", "do not ask (needed when stdin is not a terminal)")
    .action(async (target: string, options: Record<string, unknown>) => {
      const { deleteShareCommand } = await import("./shares.js");
      process.exitCode = await deleteShareCommand(
        { target, yes: options.yes === true },
        commandIO(version),
      );
    });
}
