/**
 * `coord eval DATASET --config TEAM …` (docs/eval.md). Ctrl+C, SIGTERM, SIGHUP and a closed
 * output stop the eval (src/commands/run-interrupts.ts); a second signal quits at once.
 */
import { type Command, Option } from "commander";
import { ExitCode } from "../../errors.js";
import { integerAtLeast, positiveInteger } from "../integer-options.js";
import { type CommandModule, processIO } from "./define.js";

/** `coord eval`'s options as commander parses them. */
export interface EvalOptions {
  config?: string;
  scorer: "gsm8k" | "exact" | "regex" | "judge";
  pattern?: string;
  judgeConfig?: string;
  questionField: string;
  answerField: string;
  idField?: string;
  limit?: number;
  sample?: number;
  seed?: number;
  baselineAgent?: string;
  withQuick?: boolean;
  scK?: number;
  concurrency: number;
  out?: string;
  logs: boolean;
  json?: boolean;
  yes?: boolean;
}

export const evalCommand: CommandModule<EvalOptions, [string]> = {
  name: "eval",
  description:
    "does the team beat one model and majority voting? run it, its agents alone and self-consistency on a JSONL data set and report accuracy (docs/eval.md)",
  declare: (command: Command) =>
    void command
      .argument(
        "<dataset>",
        "JSON Lines file, one {question, answer} object per line (GSM8K's format)",
      )
      .option(
        "--config <path>",
        "the team: a YAML config with two or more agents (voting or decomposition), or @examples/NAME",
      )
      .addOption(
        new Option("--scorer <name>", "how answers are scored")
          .choices(["gsm8k", "exact", "regex", "judge"])
          .default("gsm8k"),
      )
      .option(
        "--pattern <regex>",
        "with --scorer regex: read the answer as this pattern's last match (its first group); without, the reference is the pattern",
      )
      .option("--judge-config <path>", "with --scorer judge: the config of the model that judges")
      .option(
        "--question-field <name>",
        "field holding the question (dotted for nested)",
        "question",
      )
      .option("--answer-field <name>", "field holding the reference answer", "answer")
      .option("--id-field <name>", "field holding a unique item id (default: the line number)")
      .option("--limit <n>", "only the first N items", positiveInteger("--limit"))
      .option(
        "--sample <n>",
        "N items drawn at random (reproducible with --seed)",
        positiveInteger("--sample"),
      )
      .option("--seed <s>", "seed of --sample (default 0)", integerAtLeast("--seed", 0))
      .option(
        "--baseline-agent <id>",
        "the agent of the single-agent and self-consistency baselines (default: the best agent alone on the items; the first with --scorer judge)",
      )
      .option(
        "--with-quick",
        "also run the team with --quick (one answer each, no voting; voting teams)",
      )
      .option(
        "--sc-k <k>",
        "self-consistency samples (default: the team's mean model calls per item)",
        positiveInteger("--sc-k"),
      )
      .option("--concurrency <n>", "runs at once", positiveInteger("--concurrency"), 1)
      .option(
        "--out <dir>",
        "eval directory: results.jsonl, report.json, logs/ (default: <log root>/eval/<dataset>-<config>)",
      )
      .option("--no-logs", "write no run logs (results.jsonl and report.json are still written)")
      .option("--json", "print the report as JSON")
      .option(
        "-y, --yes",
        "start without confirming the cost estimate (needed when stdin is not a terminal)",
      )
      .addHelpText(
        "after",
        `
Methods: the team, --with-quick's team, each agent alone, self-consistency (the baseline
agent k times, majority vote, k matched to the team's model calls), the best agent (held-out
and oracle). Report: accuracy with Wilson 95% intervals, McNemar's test against the team,
calls, tokens, cost and time per item, the items where methods disagree.

An interrupted eval (Ctrl+C, SIGTERM) resumes where it stopped: run the same command again.
Another --scorer re-reports the finished runs without model calls.

Examples:
  coord eval ../shared/data/gsm8k/test.jsonl --config team.yaml --sample 50 --seed 1 --concurrency 4
  coord eval qa.jsonl --config team.yaml --scorer exact --question-field input --answer-field target
  coord eval qa.jsonl --config team.yaml --scorer judge --judge-config judge.yaml --json

Exit codes: 0 report printed, 1 usage, config or data error (or the estimate not confirmed),
2 five runs in a row failed, 4 interrupted (resume with the same command).`,
      ),
  async run([dataset], options, context) {
    const { evalStoppingMessage, runEvalCommand } = await import("../eval.js");
    const { watchRunInterrupts } = await import("../run-interrupts.js");
    const interrupts = watchRunInterrupts({
      source: process,
      onStopping: (signal) => process.stderr.write(`\n${evalStoppingMessage(signal)}\n`),
      quit: () => process.exit(ExitCode.interrupted),
    });
    context.onOutputClosed(() => interrupts.outputClosed());
    try {
      return await runEvalCommand(dataset, options, {
        ...processIO(context.version),
        signal: interrupts.signal,
      });
    } finally {
      interrupts.dispose();
      context.onOutputClosed(undefined);
    }
  },
};
