/**
 * The root command, `coord [options] [question]` (spec section 4.1): one question, the chat,
 * `--web`, a plan, `--validate`, `--list-sessions`. Its handler is a sequence of named steps;
 * each mode's module is imported when it is chosen, so `coord --help` stays fast.
 */
import { setFlagsFromString } from "node:v8";
import type { Command } from "commander";
import { ConfigError, ExitCode } from "../../errors.js";
import { checkJsonEvents } from "../cli-habits.js";
import { refuseCommandLikeQuestion } from "../command-guess.js";
import { inkCanDraw } from "../ink-can-draw.js";
import type { PlanRequest } from "../plan-flags.js";
import { stoppingMessage, watchRunInterrupts } from "../run-interrupts.js";
import { type CliContext, type CommandModule, type ProcessIO, processIO } from "./define.js";
import { declareRootOptions, ROOT_DESCRIPTION, type RootOptions } from "./root-options.js";

export type { RootOptions } from "./root-options.js";

/** The flags a single question, a plan, a chat and `--web` share. */
type SharedFlags = Awaited<ReturnType<typeof sharedFlags>>;

export const rootCommand: CommandModule<RootOptions, [string | undefined]> = {
  name: "coord",
  description: ROOT_DESCRIPTION,
  declare: (program, context) => declareRootOptions(program, context.version),
  async run([argument], options, context, program) {
    const io = processIO(context.version);
    const { question, singleAgent } = await questionAndAgent(argument, options, io);
    // A mistyped sub-command (`coord exprt`) must never be sent to the team as a question.
    if (question !== undefined) refuseCommandLikeQuestion(question, commandNames(program));
    checkValidateFlags(options);
    if (options.validate) return validateConfig(question, options, io);
    if (options.listSessions) {
      const { listSessions } = await import("../list-sessions.js");
      return listSessions({ home: io.home, json: options.json === true, out: io.stdout });
    }
    const sessionId = await sessionToContinue(options, io);
    const flags = await sharedFlags(options, singleAgent, sessionId);
    checkOutputFlags(options, program);
    const { resolveQuestion } = await import("../question-input.js");
    const text = await resolveQuestion(question, process.stdin);
    const asked = text !== undefined && text.trim() !== "";
    const plan = await planOf(options, asked);
    const chosen = await chooseConfig(options, flags, asked, io);
    if (chosen !== undefined) flags.config = chosen;
    if (options.web) {
      const { runWeb } = await import("../web.js");
      const web = { webHost: options.webHost, webPort: options.webPort, browser: options.browser };
      return runWeb(asked ? text : undefined, { ...flags, ...web }, io);
    }
    if (!asked && plan.kind !== "execute") {
      if (options.automation)
        throw new ConfigError('--automation needs a question: coord --automation "question"');
      const { runChat } = await import("../chat.js");
      return runChat(flags, io);
    }
    return runOnce(text, plan, flags, options, context, io);
  },
};

/**
 * The question and `--single-agent`'s value. `--single-agent "What is 2+2?"` or
 * `--single-agent go` (no agent `go`): commander took the question as the agent id. A value with
 * whitespace is the question; a one-word value is an id when the config has that agent
 * (`--single-agent -- WORD` asks WORD).
 */
async function questionAndAgent(
  question: string | undefined,
  options: RootOptions,
  io: ProcessIO,
): Promise<{ question: string | undefined; singleAgent: string | boolean | undefined }> {
  const value = options.singleAgent;
  if (
    question === undefined &&
    typeof value === "string" &&
    (/\s/.test(value.trim()) || !(await singleAgentNamed(options, value, io)))
  )
    return { question: value, singleAgent: true };
  return { question, singleAgent: value };
}

/** Whether `--single-agent ID` names an agent of the config the flags select (src/runner). */
async function singleAgentNamed(options: RootOptions, id: string, io: ProcessIO): Promise<boolean> {
  const { namesConfigAgent } = await import("../../runner/resolve-run.js");
  const { config, backend, model } = options;
  return namesConfigAgent({ config, backend, model }, id, {
    cwd: io.cwd,
    home: io.home,
    env: io.env,
  });
}

/** The sub-command names and aliases of `program`, and `help`. */
function commandNames(program: Command): string[] {
  return ["help", ...program.commands.flatMap((command) => [command.name(), ...command.aliases()])];
}

/** @throws ConfigError: `--strict` or `--offline` without `--validate`. */
function checkValidateFlags(options: RootOptions): void {
  if (options.strict && !options.validate)
    throw new ConfigError("--strict goes with --validate: coord --validate --strict");
  if (options.offline && !options.validate)
    throw new ConfigError("--offline goes with --validate: coord --validate --offline");
}

/** `coord --validate`: checks the config offline. @throws ConfigError: a question given too. */
async function validateConfig(
  question: string | undefined,
  options: RootOptions,
  io: ProcessIO,
): Promise<number> {
  if (question !== undefined)
    throw new ConfigError("--validate takes no question: coord --validate --config team.yaml");
  const { runValidate } = await import("../validate.js");
  const { config, json, strict, offline } = options;
  return runValidate(
    { config, json: json === true, strict: strict === true, offline: offline === true },
    io,
  );
}

/**
 * `--session-id`, or with `--continue` the session of this directory used last.
 * @throws ConfigError: `--continue` with `--session-id`.
 */
async function sessionToContinue(options: RootOptions, io: ProcessIO): Promise<string | undefined> {
  if (!options.continue) return options.sessionId;
  if (options.sessionId !== undefined)
    throw new ConfigError(
      "--continue and --session-id cannot be combined: --continue picks the session itself",
    );
  const { latestSessionId } = await import("../../runner/session-turns.js");
  return latestSessionId(io.home, io.cwd);
}

/** The flags a single question, a plan, a chat and `--web` share. */
async function sharedFlags(
  options: RootOptions,
  singleAgent: string | boolean | undefined,
  sessionId: string | undefined,
) {
  const { parseCwdContext } = await import("../../runner/cwd-context.js");
  return {
    config: options.config,
    backend: options.backend,
    model: options.model,
    baseUrl: options.baseUrl,
    systemMessage: options.systemMessage,
    singleAgent,
    quick: options.quick,
    coordinationMode: options.coordinationMode,
    personas: options.personas,
    maxCalls: options.maxCalls,
    maxTokens: options.maxTokens,
    maxCostUsd: options.maxCost,
    display: options.display,
    logs: options.logs,
    debug: options.debug === true,
    sessionId,
    cwdContext: parseCwdContext(options.cwdContext),
    tracing: options.tracing === true,
    outputFile: options.outputFile,
  };
}

/**
 * @throws ConfigError: `--web-host`, `--web-port` or `--no-browser` without `--web`; two
 *   displays (`--web`, `--automation`) or `--json` with either.
 */
function checkOutputFlags(options: RootOptions, program: Command): void {
  for (const [key, flag] of [
    ["webHost", "--web-host"],
    ["webPort", "--web-port"],
    ["browser", "--no-browser"],
  ] as const) {
    if (!options.web && program.getOptionValueSource(key) === "cli")
      throw new ConfigError(`${flag} goes with --web: coord --web ${flag} …`);
  }
  if (options.web && options.automation)
    throw new ConfigError("--web and --automation cannot be combined: pick one display");
  if (options.json && (options.web || options.automation))
    throw new ConfigError(
      `--json and ${options.web ? "--web" : "--automation"} cannot be combined: pick one output`,
    );
}

/**
 * What the planning flags ask for, checked with the outputs they cannot go with.
 * @throws ConfigError: `--json-events` or `--json` with a plan or without a question; the
 *   planning flags' own errors (src/commands/plan-flags.ts).
 */
async function planOf(options: RootOptions, asked: boolean): Promise<PlanRequest> {
  checkJsonEvents(options, asked);
  const { planRequest } = await import("../plan-flags.js");
  const plan = planRequest(options, {
    question: asked,
    web: options.web === true,
    quick: options.quick === true,
    coordinationMode: options.coordinationMode,
  });
  if (options.jsonEvents && plan.kind !== "none")
    throw new ConfigError(
      "--json-events streams the events of one run; a plan runs several: use --automation",
    );
  if (options.json && plan.kind !== "none")
    throw new ConfigError(
      "--json gives the result of one run; a plan runs several (planning, then each chunk): drop --json and use --automation for lines a script can read",
    );
  if (options.json && !asked)
    throw new ConfigError('--json needs a question: coord --json "question"');
  return plan;
}

/**
 * The config the wizard or the `--select` menu chose: asked with `--setup`, `--select`, or when
 * no config, backend or model is named. Undefined: keep the flags' config.
 */
async function chooseConfig(
  options: RootOptions,
  flags: SharedFlags,
  asked: boolean,
  io: ProcessIO,
): Promise<string | undefined> {
  const asks =
    options.setup === true ||
    options.select === true ||
    (flags.config === undefined && flags.backend === undefined && flags.model === undefined);
  if (!asks) return undefined;
  const { askForConfig } = await import("../first-run.js");
  return askForConfig(
    {
      setup: options.setup === true,
      select: options.select === true,
      automation: options.automation === true,
      config: flags.config,
      backend: flags.backend,
      model: flags.model,
      question: asked,
    },
    io,
  );
}

/**
 * One question or a plan, to the end: Ctrl+C, SIGTERM, SIGHUP and a closed output stop it
 * (src/commands/run-interrupts.ts); then coord exits as soon as its output has flushed.
 */
async function runOnce(
  text: string | undefined,
  plan: PlanRequest,
  flags: SharedFlags,
  options: RootOptions,
  context: CliContext,
  io: ProcessIO,
): Promise<number | undefined> {
  keepWasmOnBaseline();
  const interrupts = watchRunInterrupts({
    source: process,
    onStopping: (signal) => {
      // The live terminal view (stdout a TTY) shows the stop itself; a line would tear it.
      if (!(inkCanDraw(process.stdout) && options.display && !options.automation))
        process.stderr.write(`\n${stoppingMessage(signal)}\n`);
    },
    quit: () => process.exit(ExitCode.interrupted),
  });
  context.onOutputClosed(() => interrupts.outputClosed());
  const runFlags = {
    ...flags,
    automation: options.automation === true,
    jsonEvents: options.jsonEvents === true,
  };
  try {
    if (plan.kind !== "none") {
      const { runPlanCommand } = await import("../plan.js");
      process.exitCode = await runPlanCommand(plan, text, runFlags, {
        ...io,
        signal: interrupts.signal,
      });
    } else {
      const { runQuestion } = await import("../run.js");
      process.exitCode = await runQuestion(
        text!,
        { ...runFlags, json: options.json === true },
        { ...io, signal: interrupts.signal },
      );
    }
  } finally {
    interrupts.dispose();
    context.onOutputClosed(undefined);
  }
  // Exporters may still report a failed export (a warning) after shutdown: let them.
  const { tracingWasOpened } = await import("../command-tracing.js");
  if (!tracingWasOpened()) await exitWhenFlushed();
  return undefined;
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) in this process, before its first model
 * request. Node 20's `fetch` parses HTTP with a WebAssembly build of llhttp, and V8 re-compiles
 * its hot functions with the optimizing compiler on background threads; exit waits for those
 * jobs, 80–150 ms after a one-shot run's last response on the bench machine (8 ms with this
 * flag). A run parses a few KB of headers, so optimized code would never pay for itself. Not
 * applied to `coord serve` and `coord --web`, which live long enough to gain from it.
 */
function keepWasmOnBaseline(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Exits as soon as stdout and stderr have flushed. Called once a question's run is over and
 * everything it wrote (log, session, output file) is closed, without tracing (whose exporter may
 * still warn of a failed export), so nothing is lost; without it the process would linger for
 * work that only keeps the event loop alive (Node 20's `fetch` re-compiles its WebAssembly HTTP
 * parser in the background: see {@link keepWasmOnBaseline}).
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
