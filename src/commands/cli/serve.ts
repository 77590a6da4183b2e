/** `coord serve [--host] [--port] [--config] [--reload] …` (spec section 4.2; docs/server.md). */
import type { Command } from "commander";
import {
  durationSeconds,
  integerAtLeast,
  portNumber,
  positiveInteger,
} from "../integer-options.js";
import { type CommandModule, processIO } from "./define.js";

/** `coord serve`'s options as commander parses them. */
export interface ServeOptions {
  host?: string;
  port?: number;
  config?: string;
  reload?: boolean;
  logs: boolean;
  debug?: boolean;
  requestTimeout?: number;
  shutdownTimeout?: number;
  maxBodyBytes?: number;
  tracing?: boolean;
  corsOrigin?: string[];
  modelRouting: boolean;
  teams?: string;
  allowActingTeams?: boolean;
  maxInFlight?: number;
  stream?: boolean;
}

export const serveCommand: CommandModule<ServeOptions, []> = {
  name: "serve",
  description:
    "serve the team behind an OpenAI-compatible chat-completions endpoint (docs/server.md)",
  declare: (command: Command) =>
    void command
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
      ),
  async run(_args, options, context) {
    const { serveCommand } = await import("../serve.js");
    return serveCommand(
      {
        host: options.host,
        port: options.port,
        config: options.config,
        reload: options.reload,
        logs: options.logs,
        debug: options.debug,
        requestTimeout: options.requestTimeout,
        shutdownTimeout: options.shutdownTimeout,
        maxBodyBytes: options.maxBodyBytes,
        tracing: options.tracing === true,
        corsOrigins: options.corsOrigin,
        modelRouting: options.modelRouting,
        teams: options.teams,
        allowActingTeams: options.allowActingTeams === true,
        maxInFlight: options.maxInFlight,
        stream: options.stream === true,
      },
      processIO(context.version),
    );
  },
};
