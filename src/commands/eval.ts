/**
 * `coord eval DATASET --config TEAM` (docs/eval.md): the command side of src/eval — options to
 * {@link EvaluateOptions}, stopping (`io.signal`: Ctrl+C, SIGTERM, SIGHUP or a closed output,
 * wired in src/commands/cli/eval.ts; the runs in flight stop and run again on resume; a
 * second signal quits at once), the confirmation prompt on a terminal, and the report on stdout
 * (text, or `--json`).
 *
 * Exit codes (docs/architecture.md): 0 a report; 1 a usage, config or data error, or the estimate
 * declined or not confirmed; 2 five runs in a row failed; 4 interrupted (resume with the same
 * command).
 */
import { createInterface } from "node:readline";
import { ConfigError, ExitCode } from "../errors.js";
import {
  evaluate,
  type EvaluateOptions,
  renderEvalReport,
  type ScorerName,
  type Selection,
} from "../eval/index.js";
import type { CommandIO } from "./io.js";
import type { StopSignal } from "./run-interrupts.js";

/** The options commander parsed (src/commands/cli/eval.ts). */
export interface EvalFlags {
  config?: string | undefined;
  scorer: ScorerName;
  pattern?: string | undefined;
  judgeConfig?: string | undefined;
  questionField: string;
  answerField: string;
  idField?: string | undefined;
  limit?: number | undefined;
  sample?: number | undefined;
  seed?: number | undefined;
  baselineAgent?: string | undefined;
  withQuick?: boolean | undefined;
  scK?: number | undefined;
  concurrency: number;
  out?: string | undefined;
  logs: boolean;
  json?: boolean | undefined;
  yes?: boolean | undefined;
}

/** The line said on stderr when a signal starts the stop. */
export function evalStoppingMessage(signal: StopSignal): string {
  const again = signal === "SIGINT" ? "Ctrl+C again" : `${signal} again`;
  return `[eval] ${signal === "SIGINT" ? "" : `${signal}: `}stopping: the runs in flight are dropped and run again on resume (${again} to quit at once)…`;
}

/** The command's outside world: a command's IO plus stdin (for the confirmation). */
export interface EvalIO extends CommandIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * Runs the eval and prints the report.
 * @returns the exit code.
 * @throws ConfigError (exit 1) for bad options, configs or data; ExecutionError (exit 2).
 */
export async function runEvalCommand(
  dataset: string,
  flags: EvalFlags,
  io: EvalIO,
): Promise<number> {
  const options = evaluateOptions(dataset, flags);
  const result = await evaluate(options, {
    stderr: io.stderr,
    env: io.env,
    cwd: io.cwd,
    home: io.home,
    argv: io.argv,
    version: io.version,
    signal: io.signal ?? new AbortController().signal,
    confirm: io.stdin.isTTY === true ? (question) => ask(question, io) : undefined,
    now: () => Date.now(),
  });
  if (result.kind === "declined") {
    io.stderr.write("[eval] not started.\n");
    return ExitCode.usage;
  }
  if (result.kind === "interrupted") {
    io.stderr.write(
      `[eval] interrupted; the finished runs are in ${result.resultsFile}: run the same command to resume.\n`,
    );
    return ExitCode.interrupted;
  }
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(result.report, null, 2)}\n`
      : `${renderEvalReport(result.report, { cwd: io.cwd })}\n`,
  );
  return ExitCode.success;
}

/**
 * The evaluate options of the flags.
 * @throws ConfigError for a missing --config, --limit with --sample, or --seed without --sample.
 */
export function evaluateOptions(dataset: string, flags: EvalFlags): EvaluateOptions {
  if (flags.config === undefined)
    throw new ConfigError("coord eval needs the team: --config PATH (or @examples/NAME)");
  if (flags.limit !== undefined && flags.sample !== undefined)
    throw new ConfigError(
      "use --limit N (the first N items) or --sample N (N at random), not both",
    );
  if (flags.seed !== undefined && flags.sample === undefined)
    throw new ConfigError("--seed goes with --sample N: coord eval DATA --sample 50 --seed 1");
  const selection: Selection =
    flags.sample !== undefined
      ? { kind: "sample", size: flags.sample, seed: flags.seed ?? 0 }
      : flags.limit !== undefined
        ? { kind: "limit", limit: flags.limit }
        : { kind: "all" };
  return {
    dataset,
    config: flags.config,
    fields: { question: flags.questionField, answer: flags.answerField, id: flags.idField },
    selection,
    scorer: flags.scorer,
    pattern: flags.pattern,
    judgeConfig: flags.judgeConfig,
    baselineAgent: flags.baselineAgent,
    withQuick: flags.withQuick === true,
    scK: flags.scK,
    concurrency: flags.concurrency,
    out: flags.out,
    logs: flags.logs,
    yes: flags.yes === true,
  };
}

/** Asks on the terminal; Enter, "n", Ctrl+C or a closed stdin mean no. */
function ask(question: string, io: EvalIO): Promise<boolean> {
  return new Promise((resolve) => {
    const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
    let answered = false;
    const finish = (yes: boolean) => {
      if (answered) return;
      answered = true;
      prompt.close();
      resolve(yes);
    };
    prompt.on("SIGINT", () => {
      io.stderr.write("\n");
      finish(false);
    });
    prompt.on("close", () => finish(false));
    prompt.question(`${question} [y/N] `, (reply) => finish(/^y(es)?$/i.test(reply.trim())));
  });
}
