/**
 * `coord serve`: the team behind an OpenAI-compatible chat-completions endpoint (spec sections
 * 4.2 `serve`, 4.3, 7, 8; docs/server.md). Reads the options (flags win over `COORD_SERVER_*`),
 * loads the default config once, prints the address, config and agents, serves until SIGTERM or
 * SIGINT, then shuts down gracefully (requests in flight, and runs whose clients went away,
 * finish within the grace period; a second signal stops at once). `--reload` runs the server as
 * a child process restarted when coord's code or the config file changes
 * (src/commands/serve-reload.ts).
 *
 * Consent (docs/security.md): a team that acts is served only with `--allow-acting-teams`, and
 * off loopback only with COORD_SERVER_API_KEY; `--teams DIR` is the only folder `path:` reads.
 */
import { realpath, stat } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { ConfigError, ExitCode } from "../errors.js";
import { defaultLogRoot } from "../runner/index.js";
import type { ServedTeam } from "../server/index.js";
import { openCommandTracing } from "./command-tracing.js";
import type { ServeIO, ServeSettings } from "./io.js";

export type { ServeIO, ServeSettings };

/** The flags of `coord serve` (undefined = not given). */
export interface ServeFlags {
  host?: string | undefined;
  port?: number | undefined;
  config?: string | undefined;
  reload?: boolean | undefined;
  /** `--no-logs` sets this to false. */
  logs: boolean;
  debug?: boolean | undefined;
  /** Seconds; stop a run after this long and answer 504. */
  requestTimeout?: number | undefined;
  /** Seconds to let requests in flight finish on shutdown. */
  shutdownTimeout?: number | undefined;
  maxBodyBytes?: number | undefined;
  /** `--tracing` (also `COORD_TRACING_ENABLED=true`): each chat completion traced. */
  tracing?: boolean | undefined;
  /** `--cors-origin` (repeatable): origins whose web pages may call the server. */
  corsOrigins?: readonly string[] | undefined;
  /** False for `--no-model-routing`: without `--config`, requests may not choose a team. */
  modelRouting?: boolean | undefined;
  /** `--teams DIR`: a folder of team configs a request names as `path:FILE`. */
  teams?: string | undefined;
  /** `--allow-acting-teams`: serve teams that run commands, write files or start MCP servers. */
  allowActingTeams?: boolean | undefined;
  /** `--max-in-flight N`: team runs at once; one more gets 503 with Retry-After. */
  maxInFlight?: number | undefined;
  /** `--stream` (also `COORD_SERVER_STREAM=true`): answer `stream: true` with SSE, not 501. */
  stream?: boolean | undefined;
}

/** `--stream`, or `COORD_SERVER_STREAM` set to `true`/`1`/`yes`/`on`. */
export function streamingOn(
  flags: Pick<ServeFlags, "stream">,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const value = (env.COORD_SERVER_STREAM ?? "").toLowerCase();
  return flags.stream === true || ["true", "1", "yes", "on"].includes(value);
}

/** Default bind address and port (spec section 8). */
export const DEFAULT_HOST = "0.0.0.0";
export const DEFAULT_PORT = 4000;
/** After a second signal, how long stopped runs have to send their 503 and close their logs, ms. */
const FORCED_STOP_MS = 1000;

/** Default grace period for requests in flight at shutdown, seconds. */
export const DEFAULT_SHUTDOWN_SECONDS = 30;

/**
 * Merges flags over `COORD_SERVER_HOST`, `COORD_SERVER_PORT`, `COORD_SERVER_DEFAULT_CONFIG` and
 * `COORD_SERVER_DEBUG` (`true`/`1`/`yes`) over the defaults (spec section 4.2).
 * @throws ConfigError for a port that is not an integer in 0–65535.
 */
export function serveSettings(
  flags: ServeFlags,
  env: Readonly<Record<string, string | undefined>>,
): ServeSettings {
  const envPort = env.COORD_SERVER_PORT;
  let port = flags.port ?? DEFAULT_PORT;
  if (flags.port === undefined && envPort !== undefined && envPort !== "") {
    port = Number(envPort);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new ConfigError(
        `COORD_SERVER_PORT=${JSON.stringify(envPort)}: expected a port number from 0 to 65535`,
      );
    }
  }
  const envDebug = (env.COORD_SERVER_DEBUG ?? "").toLowerCase();
  return {
    host: flags.host ?? (env.COORD_SERVER_HOST || DEFAULT_HOST),
    port,
    config: flags.config ?? (env.COORD_SERVER_DEFAULT_CONFIG || undefined),
    debug: flags.debug === true || ["true", "1", "yes", "on"].includes(envDebug),
    shutdownGraceMs: (flags.shutdownTimeout ?? DEFAULT_SHUTDOWN_SECONDS) * 1000,
  };
}

/**
 * Runs the server until it is stopped.
 * @returns the exit code: 0 after a graceful shutdown, 4 after a forced one (second signal).
 * @throws ConfigError (exit 1) for a bad option or default config, before listening; Error when
 *   the address cannot be bound.
 */
export async function serveCommand(flags: ServeFlags, io: ServeIO): Promise<number> {
  const { loadEnvFiles } = await import("../config/env.js");
  const env = await loadEnvFiles({ home: io.home, env: io.env });
  const settings = serveSettings(flags, env);
  if (flags.reload) {
    const { superviseWithReload } = await import("./serve-reload.js");
    return superviseWithReload({ settings, io, env });
  }
  if (flags.modelRouting === false && settings.config === undefined) {
    throw new ConfigError(
      "--no-model-routing needs a team to serve: add --config FILE (or set COORD_SERVER_DEFAULT_CONFIG)",
    );
  }
  const log = (line: string) => io.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const tracing = await openCommandTracing(flags.tracing, env, io, (message) =>
    log(`warning: ${message}`),
  );
  const server = await import("../server/index.js");
  const apiKey = env.COORD_SERVER_API_KEY || undefined;
  const consent = await checkConsent(flags, settings, { cwd: io.cwd, env, apiKey });
  let team: ServedTeam | undefined;
  if (settings.config !== undefined) {
    team = await server.loadServedTeam(settings.config, { cwd: io.cwd, env });
    for (const warning of team.warnings) io.stderr.write(`coord serve: warning: ${warning}\n`);
    const acts = server.actingReasons(team.config, team.agentIndexes);
    if (acts.length > 0 && !consent.allowActing) {
      throw new ConfigError(
        `${settings.config} acts on this machine (${acts.join("; ")}): anyone who can reach the server could make it do so; to serve it anyway add --allow-acting-teams${consent.loopback ? "" : " (and set COORD_SERVER_API_KEY)"} (docs/security.md)`,
      );
    }
  }
  const logRoot = flags.logs ? defaultLogRoot(env, io.cwd) : undefined;
  const timeouts = server.serverTimeoutsFromEnv(env);
  const shutdown = new AbortController();
  const stream = streamingOn(flags, env);
  const app = server.createApp({
    team,
    env,
    cwd: io.cwd,
    version: io.version,
    logRoot,
    debug: settings.debug,
    apiKey,
    ...(flags.maxBodyBytes !== undefined ? { maxBodyBytes: flags.maxBodyBytes } : {}),
    requestTimeoutMs: flags.requestTimeout !== undefined ? flags.requestTimeout * 1000 : undefined,
    corsOrigins: flags.corsOrigins,
    modelRouting: flags.modelRouting !== false,
    teamsDir: consent.teamsDir,
    allowActingTeams: consent.allowActing,
    maxInFlight: flags.maxInFlight,
    stream,
    signal: shutdown.signal,
    cliArgs: io.argv,
    onLog: log,
    // The CLI guards process.stderr with the redactor (src/cli.ts): lines are redacted there once.
    logSinkRedacts: io.stderr === process.stderr,
    tracing,
  });
  const running = await server.startServer(app, {
    host: settings.host,
    port: settings.port,
    timeouts,
  });
  const exposed = apiKey === undefined && !server.isLoopbackHost(settings.host);
  io.stderr.write(
    banner({
      url: running.url,
      port: running.port,
      team,
      logRoot,
      apiKey,
      settings,
      io,
      exposed,
      tracing: tracing?.destination,
      consent,
      stream,
    }),
  );

  return new Promise<number>((resolve) => {
    let signals = 0;
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      signals++;
      if (signals > 1) {
        // Stop the runs (each ends with run-end "shutdown" and answers 503), give their answers
        // a moment to go out, then drop every connection.
        io.stderr.write(`coord serve: ${signal} again: stopping now\n`);
        stopping = true;
        shutdown.abort(new server.RunStopped("shutdown"));
        running.stopNow(FORCED_STOP_MS);
        return;
      }
      const inFlight = app.activity.inFlight;
      io.stderr.write(
        `coord serve: ${signal}: shutting down` +
          (inFlight > 0
            ? `; waiting for ${inFlight} request${inFlight === 1 ? "" : "s"} in flight (up to ${settings.shutdownGraceMs / 1000} s; ${signal} again to stop now)`
            : "") +
          "\n",
      );
      void running
        .close({
          graceMs: settings.shutdownGraceMs,
          onGraceExpired: () => {
            io.stderr.write("coord serve: grace period over: stopping the runs still going\n");
            shutdown.abort(new server.RunStopped("shutdown"));
          },
          // A run whose client went away still holds its slot until its run log is closed.
          runs: app.activity,
          onWaitingForRuns: (runs) =>
            io.stderr.write(
              `coord serve: waiting for ${runs} run${runs === 1 ? "" : "s"} whose client${runs === 1 ? "" : "s"} went away to end (their run logs)\n`,
            ),
        })
        .then(async () => {
          // The last spans go out within the export timeout (a Ctrl+C more does not wait).
          await tracing?.shutdown();
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
          io.stderr.write("coord serve: stopped\n");
          resolve(stopping ? ExitCode.interrupted : ExitCode.success);
        });
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

function banner(context: {
  url: string;
  port: number;
  team: ServedTeam | undefined;
  logRoot: string | undefined;
  apiKey: string | undefined;
  settings: ServeSettings;
  io: ServeIO;
  /** Where traces go, when tracing. */
  tracing: string | undefined;
  /** Reachable from other machines without a key: the banner warns. */
  exposed: boolean;
  consent: Consent;
  /** `--stream`: `stream: true` answered with Server-Sent Events. */
  stream: boolean;
}): string {
  const { team, io } = context;
  const local =
    context.settings.host === "0.0.0.0" || context.settings.host === "::"
      ? `http://127.0.0.1:${context.port}`
      : context.url;
  const lines = [`coord serve ${io.version} listening on ${context.url}`];
  if (team) {
    const agents = team.agentIndexes.map((index) => {
      const agent = team.config.agents[index]!;
      return `${agent.id} (${agent.backend.type}/${agent.backend.model ?? agent.backend.type})`;
    });
    lines.push(
      `  config:    ${team.path ?? "quick setup"} (served as model ${team.id})`,
      `  agents:    ${agents.join(", ")}; mode ${team.mode}`,
    );
  } else if (context.consent.teamsDir !== undefined) {
    lines.push(
      `  teams:     ${relative(io.cwd, context.consent.teamsDir) || "."}/ (a request's model names one as path:FILE; also @examples/NAME that do not act, <backend>/<model>)`,
    );
  } else {
    lines.push(
      "  config:    none: each request's model names the team: @examples/NAME (those that do not act) or <backend>/<model>",
    );
  }
  lines.push(
    `  acting:    ${context.consent.allowActing ? "allowed (--allow-acting-teams): teams may run commands, write files and start MCP servers here" : "refused: no team that runs commands, writes files or starts MCP servers (--allow-acting-teams)"}`,
  );
  lines.push(
    `  endpoints: GET /health, GET /v1/models[/{id}], POST /v1/chat/completions (OpenAI base URL ${local}/v1)`,
    `  streaming: ${context.stream ? "on (stream: true answered as Server-Sent Events)" : "off (stream: true is a 501; --stream or COORD_SERVER_STREAM=true)"}`,
    `  auth:      ${context.apiKey ? "Authorization: Bearer <COORD_SERVER_API_KEY> on /v1/*" : "none (set COORD_SERVER_API_KEY to require a key)"}`,
    `  run logs:  ${context.logRoot ? `${relative(io.cwd, context.logRoot) || context.logRoot}/ (one per request)` : "off"}${context.settings.debug ? ", debug" : ""}`,
    `  tracing:   ${context.tracing ? `${context.tracing} (trace id in x-coord-trace-id)` : "off (--tracing or COORD_TRACING_ENABLED=true)"}`,
  );
  if (context.exposed) {
    lines.push(
      `coord serve: warning: listening on ${context.settings.host} without COORD_SERVER_API_KEY: anyone who can reach port ${context.port} can run the team on this server's provider keys; set COORD_SERVER_API_KEY, or bind --host 127.0.0.1 (docs/server.md "Security")`,
    );
  }
  lines.push("Press Ctrl+C to stop.");
  return `${lines.join("\n")}\n`;
}

/** What the operator consented to, checked before anything is served. */
interface Consent {
  /** `--teams DIR`, absolute. */
  teamsDir: string | undefined;
  allowActing: boolean;
  /** The bind host is loopback-only. */
  loopback: boolean;
}

/**
 * Checks `--teams`, `--allow-acting-teams` and the bind host together (docs/security.md).
 * @throws ConfigError for `--teams` with `--config` or `--no-model-routing`, a teams folder that
 *   is missing or inside a folder runs write, and `--allow-acting-teams` on a host other
 *   machines can reach without COORD_SERVER_API_KEY.
 */
async function checkConsent(
  flags: ServeFlags,
  settings: ServeSettings,
  context: {
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    apiKey: string | undefined;
  },
): Promise<Consent> {
  const server = await import("../server/index.js");
  const loopback = server.isLoopbackHost(settings.host);
  const allowActing = flags.allowActingTeams === true;
  if (allowActing && !loopback && context.apiKey === undefined) {
    throw new ConfigError(
      `--allow-acting-teams on ${settings.host} needs COORD_SERVER_API_KEY: without a key anyone who can reach the port could run commands and write files on this machine; set COORD_SERVER_API_KEY (e.g. $(openssl rand -hex 32)) or bind --host 127.0.0.1 (docs/security.md)`,
    );
  }
  if (flags.teams === undefined) return { teamsDir: undefined, allowActing, loopback };
  if (settings.config !== undefined)
    throw new ConfigError(
      "--teams and --config: pick one (--config serves one team, --teams a folder of them)",
    );
  if (flags.modelRouting === false)
    throw new ConfigError(
      "--teams and --no-model-routing: pick one (--teams lets a request's model name a team)",
    );
  const teamsDir = await realpath(resolve(context.cwd, flags.teams)).catch(() => undefined);
  if (teamsDir === undefined || !(await stat(teamsDir)).isDirectory())
    throw new ConfigError(`--teams ${flags.teams}: no such folder`);
  const output = server.insideRunOutput(
    teamsDir,
    server.runOutputRoots(context.cwd, context.env),
    context.cwd,
  );
  if (output !== undefined)
    throw new ConfigError(
      `--teams ${flags.teams}: the folder is inside ${output}, where coord's runs write; nothing a run wrote may be loaded as a config: name a folder of your own configs`,
    );
  return { teamsDir, allowActing, loopback };
}
