/**
 * `coord logs [SUBCOMMAND] [OPTIONS]` (spec section 4.2): summary (the default), tools, list,
 * analyze and open over the run logs. cli.ts hands this module the arguments after `logs`
 * (imported lazily, so `coord --help` stays fast); this module owns the sub-commands' options
 * and help. Analysis lives in src/logs (plain data), text in src/ui/plain; `--json` prints the
 * data as is (shapes: docs/logs.md).
 *
 * Exit codes (ARCHITECTURE.md): 0 success; 1 usage error, no log, unreadable log (ConfigError /
 * EventLogError, reported by cli.ts); for `analyze --mode self`, those of a run.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command, Option } from "commander";
import { integerAtLeast, positiveInteger } from "./integer-options.js";
import type { LogsIO } from "./io.js";
import { defaultLogRoot } from "../runner/index.js";
import { ConfigError, ExitCode } from "../errors.js";
import {
  analysisPrompt,
  analysisPromptJson,
  listLogFiles,
  type ListOptions,
  listRuns,
  type LogsListJson,
  type RunSelection,
  selectRun,
  summarizeRun,
  toolBreakdown,
  type ToolSort,
} from "../logs/index.js";
import { createSessionStore, type LogWriterStatus, logWriterStatus } from "../session/index.js";
import { readRunLog } from "../store/index.js";
import { renderLogsSummary, renderRunList, renderToolTable } from "../ui/plain/index.js";

/** The sub-commands, and commander's `help`. */
const SUBCOMMANDS = ["summary", "tools", "list", "analyze", "open", "help"];

interface SelectionFlags {
  logDir?: string;
  turn?: number;
  attempt?: number;
  json?: boolean;
}

/** `logs analyze`'s flags. */
interface AnalyzeFlags extends SelectionFlags {
  mode: string;
  ui: string;
  config?: string;
  webHost: string;
  webPort: number;
  browser: boolean;
}

/**
 * Runs `coord logs …`.
 * @param args the arguments after `logs` (e.g. `["list", "--limit", "3"]`).
 * @returns the exit code.
 * @throws ConfigError or EventLogError (exit 1) for a missing or unreadable log, bad flags;
 *   CommanderError for parse errors and help (already printed).
 */
export async function runLogsCommand(args: readonly string[], io: LogsIO): Promise<number> {
  const first = args[0];
  if (first !== undefined && !first.startsWith("-") && !SUBCOMMANDS.includes(first)) {
    throw new ConfigError(
      `unknown logs sub-command ${JSON.stringify(first)}: use ${SUBCOMMANDS.slice(0, -1).join(", ")} (coord logs --help)`,
    );
  }
  let exitCode: number = ExitCode.success;
  const program = buildLogsProgram(io, (code) => (exitCode = code));
  await program.parseAsync([...args], { from: "user" });
  return exitCode;
}

/** The `coord logs` program (exported for `coord completion`, which reads its words). */
export function buildLogsProgram(io: LogsIO, setExitCode: (code: number) => void): Command {
  const root = defaultLogRoot(io.env, io.cwd);
  const print = (text: string) => io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  const printJson = (value: unknown) => print(JSON.stringify(value, null, 2));
  const selection = (flags: SelectionFlags): RunSelection => ({
    root,
    cwd: io.cwd,
    logDir: bareLogName(root, io.cwd, flags.logDir),
    turn: flags.turn,
    attempt: flags.attempt,
  });

  const program = new Command("coord logs")
    .description(
      "Summaries of run logs: what a run cost, where the time went, why the team chose what it chose. Logs are read from agent_outputs/ (or COORD_LOG_DIR); without a sub-command, `summary`.",
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text.startsWith("error:") ? `coord: ${text}` : text),
    })
    .showHelpAfterError(false)
    .addHelpText(
      "after",
      `
Examples:
  coord logs                                   summary of the most recent run
  coord logs --log-dir agent_outputs/log_20250101_120000 --turn 2 --json
  coord logs tools --sort calls
  coord logs list --unanalyzed --limit 20
  coord logs analyze > prompt.md               a prompt for a coding assistant
  coord logs analyze --mode self               an analysis team writes ANALYSIS_REPORT.md

JSON shapes and where the numbers come from: docs/logs.md.`,
    );

  selectionOptions(
    program
      .command("summary", { isDefault: true })
      .description(
        "the most recent run (or --log-dir): question, winner, agents, duration, rounds by outcome, tokens and cost per agent, top tools, model-call timing",
      ),
  ).action(async (flags: SelectionFlags) => {
    const where = await selectRun(selection(flags));
    const summary = summarizeRun(await readRunLog(where.attemptDir), where);
    if (flags.json) printJson(summary);
    else print(renderLogsSummary(summary, { cwd: io.cwd }));
  });

  selectionOptions(
    program
      .command("tools")
      .description("every tool with calls, failures, total and average time, and a TOTAL row")
      .addOption(
        new Option("--sort <key>", "sort by total execution time or by call count")
          .choices(["time", "calls"])
          .default("time"),
      ),
  ).action(async (flags: SelectionFlags & { sort: ToolSort }) => {
    const where = await selectRun(selection(flags));
    const tools = toolBreakdown(await readRunLog(where.attemptDir), where, flags.sort);
    if (flags.json) printJson(tools);
    else print(renderToolTable(tools, { cwd: io.cwd }));
  });

  program
    .command("list")
    .description(
      "recent runs, newest first: start time, status, turns, duration, cost, whether analyzed (ANALYSIS_REPORT.md), question",
    )
    .option("--limit <n>", "show at most N runs", positiveInteger("--limit"), 10)
    .option("--analyzed", "only runs with an ANALYSIS_REPORT.md")
    .option("--unanalyzed", "only runs without an ANALYSIS_REPORT.md")
    .option("--json", "one JSON document (shape: docs/logs.md)")
    .action(
      async (flags: {
        limit: number;
        analyzed?: boolean;
        unanalyzed?: boolean;
        json?: boolean;
      }) => {
        if (flags.analyzed && flags.unanalyzed) {
          throw new ConfigError("--analyzed and --unanalyzed cannot be used together");
        }
        const filter: ListOptions["filter"] = flags.analyzed
          ? "analyzed"
          : flags.unanalyzed
            ? "unanalyzed"
            : "all";
        const list = await listRuns({ root, limit: flags.limit, filter });
        if (flags.json) printJson(list);
        else print(renderRunList(list, { cwd: io.cwd, writers: await writersOf(list, io.home) }));
      },
    );

  selectionOptions(
    program
      .command("analyze")
      .description(
        "--mode prompt (default): print a prompt for a coding assistant naming the log directory, its files and what to look for; --mode self: an analysis team reads the log and writes ANALYSIS_REPORT.md into it",
      )
      .addOption(
        new Option("--mode <mode>", "prompt or self").choices(["prompt", "self"]).default("prompt"),
      )
      .addOption(
        new Option("--ui <ui>", "display of --mode self")
          .choices(["automation", "rich_terminal", "webui"])
          .default("rich_terminal"),
      )
      .option(
        "--config <path>",
        "analysis team config for --mode self (default @examples/log_analysis)",
      )
      .option("--web-host <host>", "with --ui webui: the page's host", "127.0.0.1")
      .option(
        "--web-port <port>",
        "with --ui webui: the page's port (0: a free one)",
        integerAtLeast("--web-port", 0),
        8000,
      )
      .option("--no-browser", "with --ui webui: do not open a browser"),
  ).action(async (flags: AnalyzeFlags, command: Command) => {
    for (const [key, flag] of [
      ["webHost", "--web-host"],
      ["webPort", "--web-port"],
      ["browser", "--no-browser"],
    ] as const) {
      if (flags.ui !== "webui" && command.getOptionValueSource(key) === "cli")
        throw new ConfigError(`${flag} goes with --mode self --ui webui`);
    }
    if (flags.mode === "self") {
      const { analyzeSelf } = await import("./logs-analyze-self.js");
      setExitCode(
        await analyzeSelf(
          {
            selection: selection(flags),
            ui: flags.ui as "automation" | "rich_terminal" | "webui",
            config: flags.config,
            json: flags.json === true,
            web: { webHost: flags.webHost, webPort: flags.webPort, browser: flags.browser },
          },
          io,
        ),
      );
      return;
    }
    if (flags.config !== undefined) {
      throw new ConfigError("--config is for --mode self (the analysis team); add --mode self");
    }
    const where = await selectRun(selection(flags));
    const files = await listLogFiles(where.logDir);
    if (flags.json) printJson(analysisPromptJson(where, files));
    else print(analysisPrompt(where, files));
  });

  program
    .command("open")
    .description(
      "open the log directory (the most recent, or --log-dir) in the system file manager; prints the path when there is none",
    )
    .option(
      "--log-dir <path>",
      "this log directory (a path, or a bare log_… name in agent_outputs/) instead of the most recent",
    )
    .option("--json", "one JSON document (shape: docs/logs.md)")
    .action(async (flags: { logDir?: string; json?: boolean }) => {
      const { openLogDir } = await import("./logs-open.js");
      const report = await openLogDir(
        { root, logDir: bareLogName(root, io.cwd, flags.logDir), json: flags.json === true },
        io,
      );
      if (report.reason !== undefined) setExitCode(ExitCode.execution);
    });

  return program;
}

/**
 * `--log-dir log_…` as `coord export` and `coord viewer` take it: a bare log name (no slash) that
 * names a folder in the log root (`agent_outputs/` or `COORD_LOG_DIR`) means that folder; any
 * other value is a path relative to `cwd`, returned as given.
 */
export function bareLogName(
  root: string,
  cwd: string,
  logDir: string | undefined,
): string | undefined {
  if (logDir === undefined || !/^log_[^/\\]+$/.test(logDir)) return logDir;
  const underRoot = join(root, logDir);
  return !existsSync(resolve(cwd, logDir)) && existsSync(underRoot) ? underRoot : logDir;
}

/** `--log-dir`, `--turn`, `--attempt`, `--json`: the options of every per-run sub-command. */
function selectionOptions(command: Command): Command {
  return command
    .option(
      "--log-dir <path>",
      "a log directory (a path, or a bare log_… name in agent_outputs/), turn_<n> or attempt_<n> directory instead of the most recent",
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
    .option("--json", "one JSON document (shape: docs/logs.md)");
}

/**
 * Whether the coord process writing each incomplete run still runs, from the sessions registry of
 * `home` (a run killed with kill -9 never writes its run-end).
 */
async function writersOf(list: LogsListJson, home: string): Promise<Map<string, LogWriterStatus>> {
  const sessions = createSessionStore({ home });
  const writers = new Map<string, LogWriterStatus>();
  for (const run of list.runs) {
    if (run.status === "incomplete")
      writers.set(run.path, await logWriterStatus(sessions, run.path));
  }
  return writers;
}
