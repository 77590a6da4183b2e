/**
 * `coord logs analyze --mode self` (spec section 4.2): runs an analysis team — the built-in
 * `@examples/log_analysis`, or `--config PATH` — on a question that quotes the run's summary,
 * key files and event trace, and writes its final answer to `ANALYSIS_REPORT.md` in the log
 * directory. The team is read-only: it has no file tools, it only reads what the question
 * quotes. Its own run is logged under `<log dir>/analysis_logs/` (so it never becomes "the most
 * recent run" of `coord logs`), unless its config turns logging off.
 *
 * `--ui automation`: the `KEY: value` lines of `coord --automation` on stdout (ANSWER_FILE: the
 * report), nothing else there; `rich_terminal` (default): the live status
 * block when stderr is a terminal, else trace lines; `webui`: the browser UI of `coord --web`
 * (docs/web.md) shows the analysis run, and stays up after it until Ctrl+C.
 */
import { basename, join, relative } from "node:path";
import { EXIT_CODE_FOR_RUN_END, ExitCode } from "../errors.js";
import type { CoordEvent, RunEndReason } from "../events/index.js";
import {
  ANALYSIS_LOGS_DIR,
  ANALYSIS_REPORT_FILE,
  analysisQuestion,
  analysisReport,
  LOGS_JSON_VERSION,
  readQuotedFiles,
  type RunSelection,
  selectRun,
  summarizeRun,
} from "../logs/index.js";
import {
  type PreparedRun,
  prepareRun,
  type RunHandle,
  runLogOptions,
  startRun,
} from "../runner/index.js";
import type { RunState } from "../session/index.js";
import { readRunLog, writeFileAtomic } from "../store/index.js";
import type { Tracing } from "../tracing/index.js";
import {
  createAutomationOutput,
  createLiveStatus,
  createTraceFormatter,
  oneLine,
  renderLogsSummary,
  traceText,
} from "../ui/plain/index.js";
import { openCommandTracing } from "./command-tracing.js";
import type { LogsIO } from "./io.js";
import type { ServedWebUi, WebServerFlags } from "./web.js";

/** The analysis team used without `--config`. */
export const DEFAULT_ANALYSIS_CONFIG = "@examples/log_analysis";

/** Options of {@link analyzeSelf}. */
export interface AnalyzeSelfOptions {
  selection: RunSelection;
  ui: "automation" | "rich_terminal" | "webui";
  /** `--config`; default {@link DEFAULT_ANALYSIS_CONFIG}. */
  config?: string | undefined;
  json: boolean;
  /** `--ui webui`: where to serve the page and whether to open a browser. */
  web?: WebServerFlags;
}

/** `coord logs analyze --mode self --json`. Paths absolute. */
export interface LogsAnalyzeSelfJson {
  version: number;
  mode: "self";
  log_dir: string;
  attempt_dir: string;
  turn: number;
  attempt: number;
  /** The analysis team's config as given. */
  config: string;
  agents: string[];
  /** How the analysis run ended. */
  status: RunEndReason;
  /** ANALYSIS_REPORT.md, or null when the analysis run produced no answer. */
  report_path: string | null;
  /** The analysis run's own attempt directory, when logged. */
  analysis_log_dir: string | null;
}

/**
 * Runs the analysis team and writes the report.
 * @returns the exit code: 0 with a report; 2, 3 or 4 when the analysis run failed, timed out
 *   or was interrupted (no report is written then).
 * @throws ConfigError for a missing or unreadable log, or a bad analysis config or missing API
 *   key (before any agent starts), or (`--ui webui`) a port in use.
 */
export async function analyzeSelf(options: AnalyzeSelfOptions, io: LogsIO): Promise<number> {
  const where = await selectRun(options.selection);
  const log = await readRunLog(where.attemptDir);
  const question = analysisQuestion({
    where,
    summaryText: renderLogsSummary(summarizeRun(log, where), { cwd: where.logDir }),
    traceText: traceText(log.events, { maxTextLength: 500 }),
    files: await readQuotedFiles(where.attemptDir),
  });

  const configArg = options.config ?? DEFAULT_ANALYSIS_CONFIG;
  const prepared = await prepareRun({ config: configArg }, io);
  for (const warning of prepared.warnings) io.stderr.write(`coord: warning: ${warning}\n`);
  // COORD_TRACING_ENABLED=true traces the analysis run too (docs/tracing.md).
  const tracing = await openCommandTracing(undefined, prepared.env, io, (message) =>
    io.stderr.write(`coord: warning: ${message}\n`),
  );
  try {
    const context = { io, where, question, configArg, prepared, tracing };
    return await analyzeTraced({ ...context, options });
  } finally {
    // After the report and the end lines: sending the last spans never delays them.
    await tracing?.shutdown();
  }
}

/** {@link analyzeSelf} once the question is built and tracing is open (or off). */
async function analyzeTraced(context: {
  options: AnalyzeSelfOptions;
  io: LogsIO;
  where: Awaited<ReturnType<typeof selectRun>>;
  question: string;
  configArg: string;
  prepared: PreparedRun;
  tracing: Tracing | undefined;
}): Promise<number> {
  const { options, io, where, question, configArg, prepared, tracing } = context;
  const { config, agentIndexes } = prepared;
  const agents = agentIndexes.map((index) => config.agents[index]!.id);
  const runTrace = tracing?.startRun({ includeContent: config.tracing.include_content });

  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  const web = options.ui === "webui";
  if (io.signal === undefined && !web) process.once("SIGINT", onSigint);
  const display = web ? undefined : createDisplay(options.ui as "automation" | "rich_terminal", io);
  io.stderr.write(
    `[system] Analysing ${relative(io.cwd, where.attemptDir) || where.attemptDir} with ${configArg} (${agents.join(", ")})\n`,
  );
  let served: ServedWebUi | undefined;
  let result;
  try {
    const handle = await startRun({
      ...prepared,
      question,
      cwd: io.cwd,
      log: runLogOptions(prepared, {
        enabled: true,
        root: join(where.logDir, ANALYSIS_LOGS_DIR),
        cwd: io.cwd,
        version: io.version,
        argv: io.argv,
        debug: false,
        traceId: runTrace?.traceId,
      }),
      signal: io.signal ?? interrupt.signal,
      subscribers: [
        ...(runTrace ? [runTrace.subscriber] : []),
        ...(display ? [(event: CoordEvent, state: RunState) => display.event(event, state)] : []),
      ],
    });
    display?.started(handle.runDir, handle.logDir, where.attemptDir);
    if (web) served = await serveAnalysis(handle, where, options.web, io, interrupt);
    result = await handle.done;
  } finally {
    process.off("SIGINT", onSigint);
    display?.done();
  }
  const { state } = result;
  const status = state.endReason ?? "failed";
  const answered = status === "completed" && state.finalAnswer !== null;
  const reportPath = join(where.logDir, ANALYSIS_REPORT_FILE);
  if (answered) {
    const report = analysisReport(
      { where, config: configArg, agents, analysisLogDir: result.logDir },
      state.finalAnswer ?? "",
    );
    await writeFileAtomic(reportPath, report);
  }
  const summary: LogsAnalyzeSelfJson = {
    version: LOGS_JSON_VERSION,
    mode: "self",
    log_dir: where.logDir,
    attempt_dir: where.attemptDir,
    turn: where.turn,
    attempt: where.attempt,
    config: configArg,
    agents,
    status,
    report_path: answered ? reportPath : null,
    analysis_log_dir: result.logDir ?? null,
  };
  if (options.json) io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (display?.automation) display.automation.end(state, { answerFile: reportPath });
  else if (answered) io.stdout.write(`${(state.finalAnswer ?? "").trimEnd()}\n`);
  if (answered) {
    io.stderr.write(`[system] Analysis report: ${relative(io.cwd, reportPath) || reportPath}\n`);
  } else {
    io.stderr.write(
      `coord: the analysis run ended ${status}${state.error ? `: ${state.error}` : ""}; no ${ANALYSIS_REPORT_FILE} was written` +
        (result.logDir ? ` (its log: ${relative(io.cwd, result.logDir) || result.logDir})` : "") +
        "\n",
    );
  }
  if (runTrace && tracing) {
    io.stderr.write(`[system] Trace: ${runTrace.traceId} (${tracing.destination})\n`);
  }
  if (served) {
    if (!interrupt.signal.aborted) {
      io.stderr.write(`[system] The page stays open at ${served.url}: Ctrl+C to stop\n`);
      await served.stopped;
    }
    await served.close();
  }
  return answered ? ExitCode.success : EXIT_CODE_FOR_RUN_END[status];
}

/** `--ui webui`: serves the analysis run in the browser UI; a signal stops the run first. */
async function serveAnalysis(
  handle: RunHandle,
  where: Pick<Awaited<ReturnType<typeof selectRun>>, "logDir" | "attemptDir">,
  flags: WebServerFlags | undefined,
  io: LogsIO,
  interrupt: AbortController,
): Promise<ServedWebUi> {
  const { serveWebUi } = await import("./web.js");
  const { singleRunHost } = await import("./single-run-host.js");
  const host = singleRunHost({
    id: "analysis",
    title: `Analysis of ${basename(where.logDir)}`,
    question: `Analyse ${relative(io.cwd, where.attemptDir) || where.attemptDir}`,
    handle,
  });
  const served = await serveWebUi(
    host,
    flags ?? { webHost: "127.0.0.1", webPort: 8000, browser: true },
    io,
  ).catch((error: unknown) => {
    handle.stop("interrupted");
    throw error;
  });
  void served.stopped.then(() => interrupt.abort());
  served.openBrowser();
  return served;
}

/** Characters of one progress line (the question quotes whole files: its line is cut). */
const TRACE_LINE_CAP = 300;

/**
 * Progress: with automation the `KEY: value` lines on stdout (src/ui/plain/automation.ts); else on
 * stderr, the live block on a terminal with rich_terminal, else trace lines.
 */
function createDisplay(ui: "automation" | "rich_terminal", io: LogsIO) {
  const live = ui === "rich_terminal" && io.stderr.isTTY === true;
  const status = live ? createLiveStatus(io.stderr) : undefined;
  const lines = createTraceFormatter({ maxTextLength: 200 });
  const automation = ui === "automation" ? createAutomationOutput(io.stdout) : undefined;
  return {
    automation,
    /** The analysis run has started: its log folders (undefined without a log). */
    started(runDir: string | undefined, logDir: string | undefined, attemptDir: string) {
      automation?.start({
        logDir: runDir,
        statusFile: logDir === undefined ? undefined : join(logDir, "status.json"),
        question: `Analyse ${attemptDir}`,
      });
    },
    event(event: CoordEvent, state: RunState) {
      if (automation) {
        automation.event(event);
        return;
      }
      if (status) {
        if (event.type === "run-end") status.clear();
        else status.update(state);
        return;
      }
      for (const line of lines.push(event)) io.stderr.write(`${oneLine(line, TRACE_LINE_CAP)}\n`);
    },
    done() {
      status?.clear();
    },
  };
}
