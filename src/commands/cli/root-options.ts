/**
 * The root command's options and help: `coord [options] [question]` (spec section 4.1). Only
 * declarations: what the options do is in root.ts and the modules it imports when it runs.
 */
import { type Command, Option } from "commander";
// The entry point's wiring names this one small module, not src/config/index.ts (zod, YAML):
// `coord --help` must not load the config schema.
// eslint-disable-next-line no-restricted-imports
import { BACKEND_TYPES } from "../../config/backend-types.js";
import { integerAtLeast, positiveInteger, positiveNumber } from "../integer-options.js";

/** The root command's options as commander parses them (`--no-x` gives `x`, default true). */
export type RootOptions = {
  config?: string;
  backend?: string;
  model?: string;
  baseUrl?: string;
  systemMessage?: string;
  /** `--single-agent` alone is true; with a value, an agent id (or the question: see root.ts). */
  singleAgent?: string | boolean;
  quick?: boolean;
  coordinationMode?: "voting" | "decomposition";
  maxCalls?: number;
  maxTokens?: number;
  /** USD. */
  maxCost?: number;
  display: boolean;
  logs: boolean;
  color: boolean;
  debug?: boolean;
  outputFile?: string;
  select?: boolean;
  setup?: boolean;
  cwdContext?: "ro" | "rw" | "read" | "write";
  plan?: boolean;
  planDepth?: "dynamic" | "shallow" | "medium" | "deep";
  planSteps?: number;
  planChunks?: number;
  broadcast?: "human" | "agents" | "false";
  planAndExecute?: boolean;
  executePlan?: string;
  web?: boolean;
  webHost: string;
  webPort: number;
  browser: boolean;
  sessionId?: string;
  continue?: boolean;
  listSessions?: boolean;
  validate?: boolean;
  strict?: boolean;
  offline?: boolean;
  json?: boolean;
  jsonEvents?: boolean;
  tracing?: boolean;
  personas?: "perspective" | "implementation" | "methodology" | "off";
  automation?: boolean;
};

/** The root command's description (`coord --help`'s first paragraph). */
export const ROOT_DESCRIPTION =
  "Run a team of model-backed agents on a question: they answer in parallel, read each other's answers, vote or refine, and one final answer comes back.";

/**
 * Declares the root command's version flag, argument, options (in the order `coord --help` lists
 * them) and help text on `program`.
 */
export function declareRootOptions(program: Command, version: string): void {
  declareHead(program, version);
  declareTeamOptions(program);
  declareBudgetOptions(program);
  declareOutputOptions(program);
  declareSetupOptions(program);
  declarePlanningOptions(program);
  declareWebOptions(program);
  declareSessionOptions(program);
  declareValidateOptions(program);
  declareScriptingOptions(program);
  declareHelpText(program);
}

/** Declares the version flag, `help [command]` and the question argument. */
function declareHead(program: Command, version: string): void {
  program
    .version(version, "-V, --version")
    .enablePositionalOptions()
    .helpCommand("help [command]", "show help for a command: coord help logs")
    .argument(
      "[question]",
      'the question; `-` reads it from stdin; text piped in beside a question is its context (cat notes.md | coord "Summarize"); without one (and nothing piped), an interactive chat starts',
    );
}

/** Declares the team: a config or quick setup, one agent, the mode. */
function declareTeamOptions(program: Command): void {
  program
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
    );
}

/** Declares the run's budget (overrides the config's `budget:`). */
function declareBudgetOptions(program: Command): void {
  program
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
    );
}

/** Declares displays, logs, colour, the debug log, the output file. */
function declareOutputOptions(program: Command): void {
  program
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
    );
}

/** Declares choosing a config, and the working directory as context. */
function declareSetupOptions(program: Command): void {
  program
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
    );
}

/** Declares planning and executing a plan (docs/planning.md). */
function declarePlanningOptions(program: Command): void {
  program
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
    );
}

/** Declares the browser UI (docs/web.md). */
function declareWebOptions(program: Command): void {
  program
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
    .option("--no-browser", "with --web, do not open a browser");
}

/** Declares memory sessions. */
function declareSessionOptions(program: Command): void {
  program
    .option(
      "--session-id <id>",
      "continue a memory session: its earlier turns are the history (also session_id: in the config)",
    )
    .option(
      "-c, --continue",
      "continue the session of this directory used last (in chat or with a question), without its id",
    )
    .option("--list-sessions", "list memory sessions (~/.coord/sessions.json) and exit");
}

/** Declares `--validate` and its modifiers. */
function declareValidateOptions(program: Command): void {
  program
    .option(
      "--validate",
      "check the config offline and exit 0 (valid) or 1: schema, keys coord will not read and why, ${VAR}s, each agent's model, key variable and files; no request is sent",
    )
    .option("--strict", "with --validate: warnings count as errors")
    .option(
      "--offline",
      "with --validate: check everything but API key presence (for CI without keys; unset key variables get placeholders)",
    );
}

/** Declares JSON results and events, tracing, personas, automation lines. */
function declareScriptingOptions(program: Command): void {
  program
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
    );
}

/** Declares the examples, exit codes and where keys and logs are, after the options. */
function declareHelpText(program: Command): void {
  program.addHelpText(
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
  );
}
