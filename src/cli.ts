#!/usr/bin/env node
/**
 * The `coord` command line (spec section 4). Wires commander, and maps errors to exit codes in
 * one place (ARCHITECTURE.md "Exit codes"). Heavy modules are imported inside the action that
 * needs them, so `coord --help` stays close to bare node's start-up time.
 */
// First: the colour choice must be made before any display module loads.
import { startupArgv } from "./color-startup.js";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { Command, Option } from "commander";
import { BACKEND_TYPES } from "./config/backend-types.js";
import { ConfigError, CoordError, ExitCode, InternalError } from "./errors.js";
import { redactWrites, registerEnvSecrets } from "./redact.js";
import { refuseCommandLikeQuestion } from "./commands/command-guess.js";
import { checkJsonEvents, errorDetails, errorJson, wantsJson } from "./commands/cli-habits.js";
import { integerAtLeast, positiveInteger, positiveNumber } from "./commands/integer-options.js";
import { stoppingMessage, watchRunInterrupts } from "./commands/run-interrupts.js";
import {
  addExportCommand,
  addSharesCommand,
  addViewerCommand,
} from "./commands/share-subcommands.js";
import { addEvalCommand, addLogsCommand, addServeCommand } from "./commands/subcommands.js";
import { parseCwdContext } from "./runner/cwd-context.js";
import { inkCanDraw } from "./commands/ink-can-draw.js";

function readVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "coord" && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "0.0.0";
}

/** Builds the program; `run` executes it on the given argv. */
function buildProgram(version: string): Command {
  const program = new Command("coord");
  program
    .description(
      "Run a team of model-backed agents on a question: they answer in parallel, read each other's answers, vote or refine, and one final answer comes back.",
    )
    .version(version, "-V, --version")
    .enablePositionalOptions()
    .helpCommand("help [command]", "show help for a command: coord help logs")
    .argument(
      "[question]",
      'the question; `-` reads it from stdin; text piped in beside a question is its context (cat notes.md | coord "Summarize"); without one (and nothing piped), an interactive chat starts',
    )
    .option("--config <path>", "YAML config, or @examples/NAME for a built-in example")
    .addOption(
      new Option("-b, --backend <type>", "quick setup without a config: the provider").choices(
        BACKEND_TYPES,
      ),
    )
    .option(
      "-m, --model <name>",
      "quick setup: model name (for --backend local, a .gguf file; default: the shipped tiny story model; for a hosted provider, its first fast model, e.g. gpt-4o-mini)",
    )
    .option(
      "--base-url <url>",
      "quick setup against an OpenAI-compatible server (vLLM, Ollama, LM Studio, OpenRouter…): its API base URL; implies --backend chatcompletion",
    )
    .option(
      "-s, --system-message <text>",
      "quick setup: the agent's system prompt (ignored with --config)",
    )
    .option(
      "--single-agent [agent_id]",
      "use one agent of the config (the first when no id is given; a value that names no agent of the config is the question)",
    )
    .option("-q, --quick", "no refinement: each agent answers once, no voting loop")
    .addOption(
      new Option(
        "--coordination-mode <mode>",
        "voting (default) or decomposition (one subtask per agent; the parts are integrated)",
      ).choices(["voting", "decomposition"]),
    )
    .option(
      "--max-calls <n>",
      "the most model requests the run may send, failed ones and retries included; then the best answer so far is presented (overrides budget.max_calls; default 40 per agent + 10)",
      positiveInteger("--max-calls"),
    )
    .option(
      "--max-tokens <n>",
      "the most tokens (input + output) the run may use (overrides budget.max_tokens)",
      positiveInteger("--max-tokens"),
    )
    .option(
      "--max-cost <usd>",
      "the most USD the run may spend, by the price table (overrides budget.max_cost_usd)",
      positiveNumber("--max-cost", "USD, e.g. 0.5"),
    )
    .option("--no-display", "no live display: plain progress lines on stderr, the answer on stdout")
    .option("--no-logs", "write no run logs")
    .option(
      "--no-color",
      "no colour in any display, for every sub-command (also NO_COLOR=1; FORCE_COLOR=1 forces colour)",
    )
    .option("--debug", "verbose log in agent_outputs/log_<time>/coord_debug.log")
    .option(
      "-o, --output-file <path>",
      "also write the final answer to this file, in any mode (chat and --web: rewritten with each turn's answer; --execute-plan: every chunk's answer)",
    )
    .option(
      "--select",
      "choose the config from a menu: ~/.config/coord/agents/, .coord/*.yaml, ./*.yaml, built-in examples",
    )
    .option(
      "--setup",
      "run the setup wizard (API keys, then a config from a template or an example); it also starts by itself when no config is found",
    )
    .addOption(
      new Option(
        "--cwd-context <mode>",
        "give the agents the working directory as a context path: ro/read (every agent reads it) or rw/write (the agent presenting the final answer may also write there); in chat: Ctrl+P (docs/tools.md)",
      ).choices(["ro", "rw", "read", "write"]),
    )
    .option(
      "--plan",
      "planning only: the team agrees on a task plan, stored in .coord/plans/ (docs/planning.md)",
    )
    .addOption(
      new Option(
        "--plan-depth <depth>",
        "with --plan: granularity (shallow ≈5-10 tasks, medium ≈20-50, deep ≈100+; dynamic: by the task)",
      ).choices(["dynamic", "shallow", "medium", "deep"]),
    )
    .option("--plan-steps <n>", "with --plan: target task count", positiveInteger("--plan-steps"))
    .option(
      "--plan-chunks <n>",
      "with --plan: group the tasks into n chunks, executed one after another",
      positiveInteger("--plan-chunks"),
    )
    .addOption(
      new Option(
        "--broadcast <mode>",
        "with --plan: agents may ask the user (human) or each other (agents) questions; false: none",
      ).choices(["human", "agents", "false"]),
    )
    .option("--plan-and-execute", "make a plan (as --plan), then execute it at once")
    .option(
      "--execute-plan <plan>",
      "execute a stored plan, chunk by chunk (resumes an interrupted one): its folder, id or latest",
    )
    .option(
      "--web",
      "browser UI instead of the terminal UI: live agents, votes, workspaces, sessions (docs/web.md)",
    )
    .option(
      "--web-host <host>",
      "browser UI host (0.0.0.0: reachable from the network, with your keys)",
      "127.0.0.1",
    )
    .option(
      "--web-port <port>",
      "browser UI port (0: a free one)",
      integerAtLeast("--web-port", 0),
      8000,
    )
    .option("--no-browser", "with --web, do not open a browser")
    .option(
      "--session-id <id>",
      "continue a memory session: its earlier turns are the history (also session_id: in the config)",
    )
    .option(
      "-c, --continue",
      "continue the session of this directory used last (in chat or with a question), without its id",
    )
    .option("--list-sessions", "list memory sessions (~/.coord/sessions.json) and exit")
    .option(
      "--validate",
      "check the config offline and exit 0 (valid) or 1: schema, keys coord will not read and why, ${VAR}s, each agent's model, key variable and files; no request is sent",
    )
    .option("--strict", "with --validate: warnings count as errors")
    .option(
      "--offline",
      "with --validate: check everything but API key presence (for CI without keys; unset key variables get placeholders)",
    )
    .option(
      "--json",
      "with a question: the run's result as one JSON object on stdout (answer, why it was degraded, winner, votes, agents, usage, cost, duration, log dir, session id), no progress; with --list-sessions: the sessions as JSON",
    )
    .option(
      "--json-events",
      "with a question: the run's events as NDJSON on stdout while it runs (one event per line, as in events.jsonl; redacted), nothing else there",
    )
    .option(
      "--tracing",
      "OpenTelemetry traces of the run (model calls, tools, rounds) to Logfire or any OTLP backend; also COORD_TRACING_ENABLED=true (docs/tracing.md)",
    )
    .addOption(
      new Option(
        "--personas <mode>",
        "one generated persona per agent, differing in perspective, implementation or methodology (off: none)",
      ).choices(["perspective", "implementation", "methodology", "off"]),
    )
    .option(
      "--automation",
      "only parseable lines on stdout: LOG_DIR, STATUS, QUESTION, WINNER, ANSWER_FILE, DURATION, COMPLETED (a budget limit: LIMIT; a degraded run: DEGRADED; planning: PLAN_DIR, PLAN_ID)",
    )
    .addHelpText(
      "after",
      `
Examples:
  coord                                            (first run: the setup wizard; then the chat)
  coord --select "Why is the sky blue?"            (pick a config from a menu, then ask)
  coord --backend local "What is 2+2?"             (the shipped tiny story model, offline)
  coord --backend local --model ./model.gguf "What is 2+2?"
  coord --config @examples/three_agents "Why is the sky blue?"
  coord --config @examples/scripted_team --no-display "Any question"
  coord --config @examples/three_agents           (interactive chat; /help inside)
  coord --list-sessions
  coord -c "And in French?"                        (continue this directory's last session)
  coord --json-events "Why?" | jq -c .type         (the events as NDJSON, while the run goes on)
  coord eval data.jsonl --config team.yaml --limit 50   (team vs baselines; docs/eval.md)

A one-word question that looks like a command (coord exprt) is refused, never sent to the team:
add punctuation to ask it (coord "export?").
Exit codes: 0 an answer (also when degraded: agents removed, the budget or the timeout reached;
stderr says why), 1 configuration or usage error, 2 no answer was ever accepted (every agent failed),
3 timeout without an answer, 4 interrupted. Every run is bounded by its budget (docs/config.md).
API keys come from the environment or ~/.config/coord/.env ($XDG_CONFIG_HOME/coord/ when set).
Run logs go to agent_outputs/ (COORD_LOG_DIR).`,
    )
    .action(
      async (question: string | undefined, options: Record<string, unknown>, command: Command) => {
        // `--single-agent "What is 2+2?"` or `--single-agent go` (no agent `go`): commander took
        // the question as the agent id.
        if (
          question === undefined &&
          typeof options.singleAgent === "string" &&
          (looksLikeQuestion(options.singleAgent) ||
            !(await singleAgentNamed(options, options.singleAgent)))
        ) {
          question = options.singleAgent;
          options.singleAgent = true;
        }
        // A mistyped sub-command (`coord exprt`) must never be sent to the team as a question.
        if (question !== undefined) refuseCommandLikeQuestion(question, commandNames(program));
        const home = process.env.HOME ?? homedir();
        const io = {
          stdout: process.stdout,
          stderr: process.stderr,
          env: process.env,
          cwd: process.cwd(),
          home,
          argv: process.argv.slice(2),
          version,
        };
        if (options.strict && !options.validate)
          throw new ConfigError("--strict goes with --validate: coord --validate --strict");
        if (options.offline && !options.validate)
          throw new ConfigError("--offline goes with --validate: coord --validate --offline");
        if (options.validate) {
          if (question !== undefined)
            throw new ConfigError(
              "--validate takes no question: coord --validate --config team.yaml",
            );
          const { runValidate } = await import("./commands/validate.js");
          process.exitCode = await runValidate(
            {
              config: options.config as string | undefined,
              json: options.json === true,
              strict: options.strict === true,
              offline: options.offline === true,
            },
            io,
          );
          return;
        }
        if (options.listSessions) {
          const { listSessions } = await import("./commands/list-sessions.js");
          process.exitCode = await listSessions({
            home,
            json: options.json === true,
            out: process.stdout,
          });
          return;
        }
        if (options.continue) {
          if (options.sessionId !== undefined)
            throw new ConfigError(
              "--continue and --session-id cannot be combined: --continue picks the session itself",
            );
          const { latestSessionId } = await import("./commands/session-turns.js");
          options.sessionId = await latestSessionId(home, io.cwd);
        }
        // The flags a single question and a chat share.
        const flags = {
          config: options.config as string | undefined,
          backend: options.backend as string | undefined,
          model: options.model as string | undefined,
          baseUrl: options.baseUrl as string | undefined,
          systemMessage: options.systemMessage as string | undefined,
          singleAgent: options.singleAgent as string | boolean | undefined,
          quick: options.quick as boolean | undefined,
          coordinationMode: options.coordinationMode as string | undefined,
          personas: options.personas as string | undefined,
          maxCalls: options.maxCalls as number | undefined,
          maxTokens: options.maxTokens as number | undefined,
          maxCostUsd: options.maxCost as number | undefined,
          display: options.display !== false,
          logs: options.logs !== false,
          debug: options.debug === true,
          sessionId: options.sessionId as string | undefined,
          cwdContext: parseCwdContext(options.cwdContext as string | undefined),
          tracing: options.tracing === true,
          outputFile: options.outputFile as string | undefined,
        };
        for (const [key, flag] of [
          ["webHost", "--web-host"],
          ["webPort", "--web-port"],
          ["browser", "--no-browser"],
        ] as const) {
          if (!options.web && command.getOptionValueSource(key) === "cli")
            throw new ConfigError(`${flag} goes with --web: coord --web ${flag} …`);
        }
        if (options.web && options.automation)
          throw new ConfigError("--web and --automation cannot be combined: pick one display");
        if (options.json && (options.web || options.automation))
          throw new ConfigError(
            `--json and ${options.web ? "--web" : "--automation"} cannot be combined: pick one output`,
          );
        const { resolveQuestion } = await import("./commands/question-input.js");
        const text = await resolveQuestion(question, process.stdin);
        checkJsonEvents(options, text !== undefined && text.trim() !== "");
        const { planRequest } = await import("./commands/plan-flags.js");
        const plan = planRequest(options, {
          question: text !== undefined && text.trim() !== "",
          web: options.web === true,
          quick: options.quick === true,
          coordinationMode: options.coordinationMode as string | undefined,
        });
        if (options.jsonEvents && plan.kind !== "none")
          throw new ConfigError(
            "--json-events streams the events of one run; a plan runs several: use --automation",
          );
        if (options.json && plan.kind !== "none")
          throw new ConfigError(
            "--json gives the result of one run; a plan runs several (planning, then each chunk): drop --json and use --automation for lines a script can read",
          );
        if (options.json && (text === undefined || text.trim() === ""))
          throw new ConfigError('--json needs a question: coord --json "question"');
        const asks =
          options.setup === true ||
          options.select === true ||
          (flags.config === undefined && flags.backend === undefined && flags.model === undefined);
        if (asks) {
          const { askForConfig } = await import("./commands/first-run.js");
          const chosen = await askForConfig(
            {
              setup: options.setup === true,
              select: options.select === true,
              automation: options.automation === true,
              config: flags.config,
              backend: flags.backend,
              model: flags.model,
              question: text !== undefined && text.trim() !== "",
            },
            { ...io, stdin: process.stdin },
          );
          if (chosen !== undefined) flags.config = chosen;
        }
        if (options.web) {
          const { runWeb } = await import("./commands/web.js");
          process.exitCode = await runWeb(
            text?.trim() === "" ? undefined : text,
            {
              ...flags,
              webHost: options.webHost as string,
              webPort: options.webPort as number,
              browser: options.browser !== false,
            },
            io,
          );
          return;
        }
        if ((text === undefined || text.trim() === "") && plan.kind !== "execute") {
          if (options.automation)
            throw new ConfigError('--automation needs a question: coord --automation "question"');
          const { runChat } = await import("./commands/chat.js");
          process.exitCode = await runChat(flags, { ...io, stdin: process.stdin });
          return;
        }
        keepWasmOnBaseline();
        const interrupts = watchRunInterrupts({
          source: process,
          onStopping: (signal) => {
            // The live terminal view (stdout a TTY) shows the stop itself; a line would tear it.
            if (!(inkCanDraw(process.stdout) && options.display !== false && !options.automation))
              process.stderr.write(`\n${stoppingMessage(signal)}\n`);
          },
          quit: () => process.exit(ExitCode.interrupted),
        });
        onOutputClosed = () => interrupts.outputClosed();
        const runFlags = {
          ...flags,
          automation: options.automation === true,
          jsonEvents: options.jsonEvents === true,
        };
        try {
          if (plan.kind !== "none") {
            const { runPlanCommand } = await import("./commands/plan.js");
            process.exitCode = await runPlanCommand(plan, text, runFlags, {
              ...io,
              signal: interrupts.signal,
              stdin: process.stdin,
            });
          } else {
            const { runQuestion } = await import("./commands/run.js");
            process.exitCode = await runQuestion(
              text!,
              { ...runFlags, json: options.json === true },
              { ...io, signal: interrupts.signal },
            );
          }
        } finally {
          interrupts.dispose();
          onOutputClosed = undefined;
        }
        // Exporters may still report a failed export (a warning) after shutdown: let them.
        const { tracingWasOpened } = await import("./commands/command-tracing.js");
        if (!tracingWasOpened()) await exitWhenFlushed();
      },
    );
  addServeCommand(program, version);
  addLogsCommand(program, version);
  addViewerCommand(program, version);
  addExportCommand(program, version);
  addSharesCommand(program, version);
  addEvalCommand(program, version, {
    onOutputClosed: (handler) => {
      onOutputClosed = handler;
    },
  });
  program
    .command("completion")
    .argument("<shell>", "bash, zsh or fish")
    .description(
      'print a shell completion script: coord completion bash >> ~/.bashrc; eval "$(coord completion zsh)"; coord completion fish > ~/.config/fish/completions/coord.fish',
    )
    .action(async (shell: string) => {
      const { completionScript } = await import("./commands/completion.js");
      const { buildLogsProgram } = await import("./commands/logs.js");
      const logs = buildLogsProgram(
        {
          stdout: process.stdout,
          stderr: process.stderr,
          env: process.env,
          cwd: process.cwd(),
          home: process.env.HOME ?? homedir(),
          argv: [],
          version,
          platform: process.platform,
        },
        () => undefined,
      );
      process.stdout.write(completionScript(shell, program, { logs }));
    });
  return program;
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) in this process, before its first model
 * request. Node 20's `fetch` parses HTTP with a WebAssembly build of llhttp, and V8 re-compiles
 * its hot functions with the optimizing compiler on background threads; exit waits for those
 * jobs, 80–150 ms after a one-shot run's last response on the bench machine (issue 19; 8 ms with
 * this flag). A run parses a few KB of headers, so optimized code would never pay for itself.
 * Not applied to `coord serve` and `coord --web`, which live long enough to gain from it.
 */
function keepWasmOnBaseline(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Exits as soon as stdout and stderr have flushed. Called once a question's run is over and
 * everything it wrote (log, session, output file) is closed, without tracing (whose exporter may
 * still warn of a failed export), so nothing is lost; without
 * it the process would linger for work that only keeps the event loop alive (Node 20's `fetch`
 * re-compiles its WebAssembly HTTP parser in the background: see {@link keepWasmOnBaseline}).
 */
async function exitWhenFlushed(): Promise<never> {
  const flushed = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) return resolve();
      stream.write("", () => resolve());
    });
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}

/** The sub-command names and aliases of `program`, and `help`. */
function commandNames(program: Command): string[] {
  return ["help", ...program.commands.flatMap((command) => [command.name(), ...command.aliases()])];
}

/**
 * True for a `--single-agent` value that cannot be an agent id and is the question: it has
 * whitespace (`--single-agent "What is 2+2?"`). A one-word value is an id (checked against the
 * config; `--single-agent -- WORD` asks WORD).
 */
/** Whether `--single-agent ID` names an agent of the config the flags select (src/runner). */
async function singleAgentNamed(options: Record<string, unknown>, id: string): Promise<boolean> {
  const { namesConfigAgent } = await import("./runner/resolve-run.js");
  return namesConfigAgent(
    {
      config: options.config as string | undefined,
      backend: options.backend as string | undefined,
      model: options.model as string | undefined,
    },
    id,
    { cwd: process.cwd(), home: process.env.HOME ?? homedir(), env: process.env },
  );
}

function looksLikeQuestion(value: unknown): value is string {
  return typeof value === "string" && /\s/.test(value.trim());
}

/**
 * Prints one line for coord's own errors on stderr and returns their exit code; others are
 * internal. Under `--json` the error is also one JSON object on stdout (src/commands/cli-habits.ts).
 */
function reportError(error: unknown, json: boolean): number {
  if (error instanceof CoordError && !(error instanceof InternalError)) {
    if (json) writeJsonError(error.message, "config", error.exitCode, errorDetails(error));
    process.stderr.write(`coord: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) writeJsonError(`internal error (please report it): ${message}`, "internal", 2);
  process.stderr.write(`coord: internal error (please report it): ${message}\n`);
  return ExitCode.execution;
}

function writeJsonError(
  message: string,
  code: string,
  exitCode: number,
  details?: ReturnType<typeof errorDetails>,
): void {
  process.stdout.write(`${JSON.stringify(errorJson(message, code, exitCode, details), null, 2)}\n`);
}

/** Set while a single question or an eval runs: then a closed output stops it instead of exiting. */
let onOutputClosed: (() => void) | undefined;

// A closed pipe (`coord … | head`, EPIPE) or a closed terminal (EIO) is not worth a stack trace.
// During a question or an eval it stops the run like Ctrl+C (run-end, metrics, session closed; later
// writes to the dead stream are dropped), and coord exits when the run has ended; otherwise
// coord exits at once.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "EIO") throw error;
    if (onOutputClosed) onOutputClosed();
    else process.exit(process.exitCode ?? 0);
  });
}

// Nothing coord prints may carry a key: every write to stdout and stderr passes through the one
// redactor (src/redact.ts), which knows the environment's keys from here on.
registerEnvSecrets(process.env);
redactWrites(process.stdout);
redactWrites(process.stderr);

const program = buildProgram(readVersion());
program.exitOverride();
const jsonErrors = wantsJson(startupArgv);
/** Under --json, commander's parse error, printed as JSON on stdout too. */
let usageError: string | undefined;
const output = {
  writeErr: (text: string) => {
    if (jsonErrors && text.startsWith("error:")) usageError = text.slice(6).trim();
    process.stderr.write(text.startsWith("error:") ? `coord: ${text}` : text);
  },
};
program.configureOutput(output);
for (const command of program.commands) command.configureOutput(output);
try {
  await program.parseAsync([...process.argv.slice(0, 2), ...startupArgv]);
} catch (error) {
  const code = (error as { code?: string }).code;
  if (typeof code === "string" && code.startsWith("commander.")) {
    // Help and version exit 0; parse errors (already printed) are usage errors.
    process.exitCode =
      code === "commander.helpDisplayed" ||
      code === "commander.version" ||
      code === "commander.help"
        ? 0
        : ExitCode.usage;
    if (usageError !== undefined) writeJsonError(usageError, "usage", ExitCode.usage);
  } else {
    process.exitCode = reportError(error, jsonErrors);
  }
}
