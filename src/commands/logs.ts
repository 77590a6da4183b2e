/**
 * `coord logs [SUBCOMMAND] [OPTIONS]` (spec section 4.2): summary (the default), tools, list,
 * analyze and open over the run logs. cli.ts hands this module the arguments after `logs`
 * (imported lazily, so `coord --help` stays fast); this module owns the sub-commands' options
 * and help. Analysis lives in src/logs (plain data), text in src/ui/plain; `--json` prints the
 * data as is (shapes: docs/logs.md).
 *
 * Exit codes (docs/architecture.md): 0 success; 1 usage error, no log, unreadable log
 * (ConfigError / EventLogError, reported by cli.ts); for `analyze --mode self`, those of a run.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command, Option } from "commander";
import { addCommand, type CommandModule } from "./cli/define.js";
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
import { createSessionStore, type LogWriterStatus, logWriterStatus } from "../sessions/index.js";
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
  mode: "prompt" | "self";
  ui: "automation" | "rich_terminal" | "webui";
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

/** What the `coord logs` sub-commands are given: the IO and the log root. */
interface LogsContext {
  io: LogsIO;
  /** `agent_outputs/` in the working directory, or `COORD_LOG_DIR`. */
  root: string;
}

/** The `coord logs` program (exported for `coord completion`, which reads its words). */
export function buildLogsProgram(io: LogsIO, setExitCode: (code: number) => void): Command {
  const context: LogsContext = { io, root: defaultLogRoot(io.env, io.cwd) };
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
  for (const module of LOGS_SUBCOMMANDS) addCommand(program, module, context, setExitCode);
  return program;
}

/** Prints `text` on stdout, ending it with a newline. */
function print(context: LogsContext, text: string): void {
  context.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Prints `value` as indented JSON on stdout. */
function printJson(context: LogsContext, value: unknown): void {
  print(context, JSON.stringify(value, null, 2));
}

/** The run the selection flags name, in the log root. */
function selection({ io, root }: LogsContext, flags: SelectionFlags): RunSelection {
  return {
    root,
    cwd: io.cwd,
    logDir: bareLogName(root, io.cwd, flags.logDir),
    turn: flags.turn,
    attempt: flags.attempt,
  };
}

/** A `coord logs` sub-command. */
type LogsCommand<Options extends object> = CommandModule<Options, [], LogsContext>;

const summaryCommand: LogsCommand<SelectionFlags> = {
  name: "summary",
  description:
    "the most recent run (or --log-dir): question, winner, agents, duration, rounds by outcome, tokens and cost per agent, top tools, model-call timing",
  isDefault: true,
  declare: (command) => void selectionOptions(command),
  async run(_args, flags, context) {
    const where = await selectRun(selection(context, flags));
    const summary = summarizeRun(await readRunLog(where.attemptDir), where);
    if (flags.json) printJson(context, summary);
    else print(context, renderLogsSummary(summary, { cwd: context.io.cwd }));
    return undefined;
  },
};

const toolsCommand: LogsCommand<SelectionFlags & { sort: ToolSort }> = {
  name: "tools",
  description: "every tool with calls, failures, total and average time, and a TOTAL row",
  declare: (command) =>
    void selectionOptions(
      command.addOption(
        new Option("--sort <key>", "sort by total execution time or by call count")
          .choices(["time", "calls"])
          .default("time"),
      ),
    ),
  async run(_args, flags, context) {
    const where = await selectRun(selection(context, flags));
    const tools = toolBreakdown(await readRunLog(where.attemptDir), where, flags.sort);
    if (flags.json) printJson(context, tools);
    else print(context, renderToolTable(tools, { cwd: context.io.cwd }));
    return undefined;
  },
};

const listCommand: LogsCommand<{
  limit: number;
  analyzed?: boolean;
  unanalyzed?: boolean;
  json?: boolean;
}> = {
  name: "list",
  description:
    "recent runs, newest first: start time, status, turns, duration, cost, whether analyzed (ANALYSIS_REPORT.md), question",
  declare: (command) =>
    void command
      .option("--limit <n>", "show at most N runs", positiveInteger("--limit"), 10)
      .option("--analyzed", "only runs with an ANALYSIS_REPORT.md")
      .option("--unanalyzed", "only runs without an ANALYSIS_REPORT.md")
      .option("--json", "one JSON document (shape: docs/logs.md)"),
  async run(_args, flags, context) {
    if (flags.analyzed && flags.unanalyzed) {
      throw new ConfigError("--analyzed and --unanalyzed cannot be used together");
    }
    const filter: ListOptions["filter"] = flags.analyzed
      ? "analyzed"
      : flags.unanalyzed
        ? "unanalyzed"
        : "all";
    const list = await listRuns({ root: context.root, limit: flags.limit, filter });
    if (flags.json) printJson(context, list);
    else {
      const writers = await writersOf(list, context.io.home);
      print(context, renderRunList(list, { cwd: context.io.cwd, writers }));
    }
    return undefined;
  },
};

const analyzeCommand: LogsCommand<AnalyzeFlags> = {
  name: "analyze",
  description:
    "--mode prompt (default): print a prompt for a coding assistant naming the log directory, its files and what to look for; --mode self: an analysis team reads the log and writes ANALYSIS_REPORT.md into it",
  declare: (command) =>
    void selectionOptions(
      command
        .addOption(
          new Option("--mode <mode>", "prompt or self")
            .choices(["prompt", "self"])
            .default("prompt"),
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
    ),
  async run(_args, flags, context, command) {
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
      return analyzeSelf(
        {
          selection: selection(context, flags),
          ui: flags.ui,
          config: flags.config,
          json: flags.json === true,
          web: { webHost: flags.webHost, webPort: flags.webPort, browser: flags.browser },
        },
        context.io,
      );
    }
    if (flags.config !== undefined) {
      throw new ConfigError("--config is for --mode self (the analysis team); add --mode self");
    }
    const where = await selectRun(selection(context, flags));
    const files = await listLogFiles(where.logDir);
    if (flags.json) printJson(context, analysisPromptJson(where, files));
    else print(context, analysisPrompt(where, files));
    return undefined;
  },
};

const openCommand: LogsCommand<{ logDir?: string; json?: boolean }> = {
  name: "open",
  description:
    "open the log directory (the most recent, or --log-dir) in the system file manager; prints the path when there is none",
  declare: (command) =>
    void command
      .option(
        "--log-dir <path>",
        "this log directory (a path, or a bare log_… name in agent_outputs/) instead of the most recent",
      )
      .option("--json", "one JSON document (shape: docs/logs.md)"),
  async run(_args, flags, { io, root }) {
    const { openLogDir } = await import("./logs-open.js");
    const report = await openLogDir(
      { root, logDir: bareLogName(root, io.cwd, flags.logDir), json: flags.json === true },
      io,
    );
    return report.reason !== undefined ? ExitCode.execution : undefined;
  },
};

/** The sub-commands of `coord logs`, in the order its `--help` lists them. */
const LOGS_SUBCOMMANDS: readonly LogsCommand<object>[] = [
  summaryCommand,
  toolsCommand,
  listCommand,
  analyzeCommand,
  openCommand,
];

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
