/**
 * Registration of the `serve` and `logs` sub-commands on the root program (spec section 4.2).
 * Only commander is loaded here: each action imports its command module when it runs, so
 * `coord --help` stays fast.
 */
import { homedir } from "node:os";
import type { Command } from "commander";
import { durationSeconds, integerAtLeast, portNumber } from "./integer-options.js";

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
      "--cors-origin <origin>",
      "let web pages from this origin call the server (repeatable; * for any); other Origins get 403",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      "--no-model-routing",
      "without --config, refuse requests whose model names a team (path:FILE, @examples/NAME, <backend>/<model>)",
    )
    .addHelpText(
      "after",
      `
With COORD_SERVER_API_KEY set, /v1/* requires Authorization: Bearer <key>. Binding a
non-loopback address (the default 0.0.0.0) without it prints a warning: anyone who can reach
the port can spend the provider keys (docs/server.md "Security").
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
          corsOrigins: options.corsOrigin as string[] | undefined,
          modelRouting: options.modelRouting !== false,
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
