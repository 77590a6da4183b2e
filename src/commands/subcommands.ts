/**
 * Registration of the `serve`, `logs` and `eval` sub-commands on the root program (spec section
 * 4.2; docs/eval.md).
 * Only commander is loaded here: each action imports its command module when it runs, so
 * `coord --help` stays fast.
 */
import { homedir } from "node:os";
import { type Command, Option } from "commander";
import { ExitCode } from "../errors.js";
import { durationSeconds, integerAtLeast, portNumber, positiveInteger } from "./integer-options.js";

/** `coord serve [--host] [--port] [--config] [--reload] …` (docs/server.md). */
export function addServeCommand(program: Command, version: string): void {
  program
    .command("serve")
    .description(
      "serve the team behind an OpenAI-compatible chat-completions endpoint (docs/server.md)",
    )
    .option("--host <host>", "bind host (COORD_SERVER_HOST; default 0.0.0.0)")
    .option(
      "--port <port>",
      "bind port, 0 for a free one (COORD_SERVER_PORT; default 4000)",
      portNumber("--port"),
    )
    .option(
      "--config <path>",
      "the team: a YAML config or @examples/NAME (COORD_SERVER_DEFAULT_CONFIG); without one, each request's model names it",
    )
    .option("--reload", "restart when coord's code or the config file changes (development)")
    .option(
      "--no-logs",
      "write no run logs (default: one per request in agent_outputs/ or COORD_LOG_DIR)",
    )
    .option("--debug", "trace lines on stderr and coord_debug.log per run (COORD_SERVER_DEBUG)")
    .option(
      "--request-timeout <seconds>",
      "answer 504 when a run takes longer (default: the config's timeouts)",
      durationSeconds("--request-timeout", 1),
    )
    .option(
      "--shutdown-timeout <seconds>",
      "on SIGTERM/SIGINT, let requests in flight finish this long (default 30)",
      durationSeconds("--shutdown-timeout", 0),
    )
    .option(
      "--max-body-bytes <bytes>",
      "reject larger request bodies with 413 (default 1048576)",
      integerAtLeast("--max-body-bytes", 1),
    )
    .option(
      "--tracing",
      "OpenTelemetry traces of each request and its run (COORD_TRACING_ENABLED; docs/tracing.md)",
    )
    .option(
      "--cors-origin <origin>",
      "let web pages from this origin call the server (repeatable; * for any); other Origins get 403",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      "--no-model-routing",
      "without --config, refuse requests whose model names a team (path:FILE, @examples/NAME, <backend>/<model>)",
    )
    .option(
      "--teams <dir>",
      "a folder of team configs a request's model names as path:FILE (not with --config)",
    )
    .option(
      "--allow-acting-teams",
      "serve teams that run commands, write files or start MCP servers (needs COORD_SERVER_API_KEY off loopback)",
    )
    .option(
      "--max-in-flight <n>",
      "team runs at once; one more gets 503 with Retry-After (default 64)",
      positiveInteger("--max-in-flight"),
    )
    .option(
      "--stream",
      "answer stream: true with Server-Sent Events (trace, then the answer; COORD_SERVER_STREAM) instead of 501",
    )
    .addHelpText(
      "after",
      `
With COORD_SERVER_API_KEY set, /v1/* requires Authorization: Bearer <key>. Binding a
non-loopback address (the default 0.0.0.0) without it prints a warning: anyone who can reach
the port can spend the provider keys. A team that runs commands, writes files or starts MCP
servers is served only with --allow-acting-teams, and then off loopback only with a key; a
request reaches only built-in examples that do not act, --teams files and <backend>/<model>
(docs/security.md).
Example:
  coord serve --config @examples/scripted_team --port 4000
  curl http://127.0.0.1:4000/v1/chat/completions -H 'content-type: application/json' \\
    -d '{"model": "coord", "messages": [{"role": "user", "content": "What is 2+2?"}]}'`,
    )
    .action(async (options: Record<string, unknown>) => {
      const { serveCommand } = await import("./serve.js");
      process.exitCode = await serveCommand(
        {
          host: options.host as string | undefined,
          port: options.port as number | undefined,
          config: options.config as string | undefined,
          reload: options.reload as boolean | undefined,
          logs: options.logs !== false,
          debug: options.debug as boolean | undefined,
          requestTimeout: options.requestTimeout as number | undefined,
          shutdownTimeout: options.shutdownTimeout as number | undefined,
          maxBodyBytes: options.maxBodyBytes as number | undefined,
          tracing: options.tracing === true,
          corsOrigins: options.corsOrigin as string[] | undefined,
          modelRouting: options.modelRouting !== false,
          teams: options.teams as string | undefined,
          allowActingTeams: options.allowActingTeams === true,
          maxInFlight: options.maxInFlight as number | undefined,
          stream: options.stream === true,
        },
        {
          stderr: process.stderr,
          env: process.env,
          cwd: process.cwd(),
          home: process.env.HOME ?? homedir(),
          argv: process.argv.slice(2),
          version,
        },
      );
    });
}

/** `coord logs [summary|tools|list|analyze|open] …` (docs/logs.md); options parsed in logs.ts. */
export function addLogsCommand(program: Command, version: string): void {
  program
    .command("logs")
    .description(
      "summary (default), tools, list, analyze, open over the run logs (coord logs --help)",
    )
    .usage("[summary|tools|list|analyze|open] [options]")
    .helpOption(false)
    .passThroughOptions()
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[subcommand...]")
    .action(async (args: string[]) => {
      // The sub-commands and their options live in commands/logs.ts (lazy: --help stays fast).
      const { runLogsCommand } = await import("./logs.js");
      process.exitCode = await runLogsCommand(args, {
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        cwd: process.cwd(),
        home: process.env.HOME ?? homedir(),
        argv: process.argv.slice(2),
        version,
        platform: process.platform,
      });
    });
}

/** How the eval learns that stdout or stderr is gone (cli.ts owns the streams' error handler). */
export interface EvalCommandHooks {
  /** Sets (a function) or clears (undefined) what a closed output (EPIPE, EIO) calls. */
  onOutputClosed(handler: (() => void) | undefined): void;
}

/**
 * `coord eval DATASET --config TEAM …` (docs/eval.md). Ctrl+C, SIGTERM, SIGHUP and a closed
 * output stop the eval (src/commands/run-interrupts.ts); a second signal quits at once.
 */
export function addEvalCommand(program: Command, version: string, hooks: EvalCommandHooks): void {
  program
    .command("eval")
    .description(
      "does the team beat one model and majority voting? run it, its agents alone and self-consistency on a JSONL data set and report accuracy (docs/eval.md)",
    )
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
    .option("--question-field <name>", "field holding the question (dotted for nested)", "question")
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
    )
    .action(async (dataset: string, options: Record<string, unknown>) => {
      const { evalStoppingMessage, runEvalCommand } = await import("./eval.js");
      const { watchRunInterrupts } = await import("./run-interrupts.js");
      const interrupts = watchRunInterrupts({
        source: process,
        onStopping: (signal) => process.stderr.write(`\n${evalStoppingMessage(signal)}\n`),
        quit: () => process.exit(ExitCode.interrupted),
      });
      hooks.onOutputClosed(() => interrupts.outputClosed());
      try {
        process.exitCode = await runEvalCommand(
          dataset,
          {
            config: options.config as string | undefined,
            scorer: options.scorer as "gsm8k" | "exact" | "regex" | "judge",
            pattern: options.pattern as string | undefined,
            judgeConfig: options.judgeConfig as string | undefined,
            questionField: options.questionField as string,
            answerField: options.answerField as string,
            idField: options.idField as string | undefined,
            limit: options.limit as number | undefined,
            sample: options.sample as number | undefined,
            seed: options.seed as number | undefined,
            baselineAgent: options.baselineAgent as string | undefined,
            withQuick: options.withQuick as boolean | undefined,
            scK: options.scK as number | undefined,
            concurrency: options.concurrency as number,
            out: options.out as string | undefined,
            logs: options.logs !== false,
            json: options.json as boolean | undefined,
            yes: options.yes as boolean | undefined,
          },
          {
            stdout: process.stdout,
            stderr: process.stderr,
            stdin: process.stdin,
            env: process.env,
            cwd: process.cwd(),
            home: process.env.HOME ?? homedir(),
            argv: process.argv.slice(2),
            version,
            signal: interrupts.signal,
          },
        );
      } finally {
        interrupts.dispose();
        hooks.onOutputClosed(undefined);
      }
    });
}
