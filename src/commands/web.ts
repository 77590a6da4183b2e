/**
 * `coord --web ["<question>"]` (spec section 4.1; docs/web.md): the browser UI instead of the
 * terminal UI. Resolves the config like a chat, starts the web server on `--web-host`
 * (default 127.0.0.1) and `--web-port` (default 8000), prints its address, and with a question
 * starts the first turn at once. Opens the browser (the `open` package) unless `--no-browser`.
 * Serves until SIGINT, SIGTERM or SIGHUP (the terminal closed), which stop a turn still running
 * and close the session; a second signal quits at once (exit 4).
 *
 * Also serves `coord logs analyze --mode self --ui webui` through {@link serveWebUi}.
 */
import { hostname, networkInterfaces } from "node:os";
import { ExitCode } from "../errors.js";
import { openCommandTracing } from "./command-tracing.js";
import type { CommandIO } from "./io.js";
import { watchRunInterrupts } from "./run-interrupts.js";
import { type PreparedRun, prepareRun, type PrepareFlags } from "../runner/index.js";
import type { WebHost } from "../server/index.js";
import type { Tracing } from "../tracing/index.js";

/** Flags of `coord --web`. */
export interface WebFlags extends PrepareFlags, WebServerFlags {
  logs: boolean;
  debug: boolean;
  sessionId?: string | undefined;
  /** `--tracing` (also `COORD_TRACING_ENABLED=true`): each turn traced. */
  tracing?: boolean | undefined;
}

/** Where to serve and whether to open a browser. */
export interface WebServerFlags {
  webHost: string;
  webPort: number;
  /** False for `--no-browser`. */
  browser: boolean;
}

/** Hosts that only this machine can reach. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Runs the browser UI until a signal stops it.
 * @returns the exit code: 0 after Ctrl+C, SIGTERM or SIGHUP (a turn still running is stopped and
 *   logged); a second signal while stopping exits 4 at once.
 * @throws ConfigError (exit 1) for a bad config or flags, an unknown session id, or a port in use.
 */
export async function runWeb(
  question: string | undefined,
  flags: WebFlags,
  io: CommandIO,
): Promise<number> {
  const prepared = await prepareRun(flags, io);
  for (const warning of prepared.warnings) io.stderr.write(`coord: warning: ${warning}\n`);
  const warn = (line: string) => io.stderr.write(`coord: warning: ${line}\n`);
  const tracing = await openCommandTracing(flags.tracing, prepared.env, io, warn);
  try {
    return await serveSessions(question, flags, io, prepared, tracing);
  } finally {
    await tracing?.shutdown();
  }
}

/** {@link runWeb} once the config is prepared and tracing is open (or off). */
async function serveSessions(
  question: string | undefined,
  flags: WebFlags,
  io: CommandIO,
  prepared: PreparedRun,
  tracing: Tracing | undefined,
): Promise<number> {
  const { createSessionWebHost } = await import("./web-session-host.js");
  const host = await createSessionWebHost({
    tracing,
    prepared,
    io,
    logs: flags.logs,
    debug: flags.debug,
    sessionId: flags.sessionId,
    outputFile: flags.outputFile,
    warn: (line) => io.stderr.write(`coord: warning: ${line}\n`),
  });
  const served = await serveWebUi(host, flags, io);
  // Spec section 4.1: with a question it auto-opens a browser; without one the address is printed.
  if (question !== undefined) {
    await host.ask(question);
    served.openBrowser();
  }
  await served.stopped;
  await host.shutdown();
  await served.close();
  return 0;
}

/** A running web UI. */
export interface ServedWebUi {
  url: string;
  /** Opens the page in the browser, unless `--no-browser`. */
  openBrowser(): void;
  /** Resolves at the first SIGINT, SIGTERM or SIGHUP. */
  stopped: Promise<void>;
  /** Closes the sockets and the server. */
  close(): Promise<void>;
}

/**
 * Starts the web server for a host and prints its address (and a warning on a host other
 * machines can reach).
 * @throws ConfigError when the address cannot be bound (a port in use names `--web-port`).
 */
export async function serveWebUi(
  host: WebHost,
  flags: WebServerFlags,
  io: Pick<CommandIO, "stdout" | "stderr"> & Partial<Pick<CommandIO, "env">>,
): Promise<ServedWebUi> {
  const server = await import("../server/index.js");
  const loopback = LOOPBACK.has(flags.webHost);
  const names = webHostNames(flags.webHost);
  if (!loopback) {
    io.stderr.write(
      `coord: warning: --web-host ${flags.webHost} lets anyone on the network who can reach this machine open the page and run the team with your API keys; use 127.0.0.1 unless you mean it (the page answers only to ${names.join(", ")}; docs/security.md)\n`,
    );
  }
  const web = server.createWebApp({ host, allowedHostNames: names });
  const running = await server.startServer(web.app, {
    host: flags.webHost,
    port: flags.webPort,
    portHint: "--web-port",
    onServer: (node) => web.injectWebSocket(node),
    timeouts: server.serverTimeoutsFromEnv(io.env ?? {}),
  });
  // A wildcard address is opened through loopback; an IPv6 address goes in brackets.
  const shownHost = ["0.0.0.0", "::"].includes(flags.webHost)
    ? "127.0.0.1"
    : flags.webHost.includes(":")
      ? `[${flags.webHost}]`
      : flags.webHost;
  const url = `http://${shownHost}:${running.port}/`;
  io.stdout.write(`coord web UI: ${url} (Ctrl+C to stop)\n`);
  const interrupts = watchRunInterrupts({
    source: process,
    onStopping: (signal) =>
      io.stderr.write(
        signal === "SIGINT"
          ? "coord: stopping the web UI (Ctrl+C again to quit at once)\n"
          : `coord: ${signal}: stopping the web UI (send it again to quit at once)\n`,
      ),
    quit: () => process.exit(ExitCode.interrupted),
  });
  const stopped = new Promise<void>((resolve) =>
    interrupts.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  return {
    url,
    stopped,
    openBrowser() {
      if (!flags.browser) return;
      const cannot = (error: Error) =>
        io.stderr.write(`coord: warning: cannot open a browser (${error.message}); open ${url}\n`);
      void import("open")
        .then(async ({ default: open }) => (await open(url)).on("error", cannot))
        .catch(cannot);
    },
    async close() {
      interrupts.dispose();
      web.closeSockets();
      await running.close({ graceMs: 1000 });
    },
  };
}

/**
 * The Host names the web UI answers to besides the loopback names (a DNS-rebinding page names
 * its own host, never one of these): the `--web-host` it binds, and for a wildcard bind
 * (`0.0.0.0`, `::`) this machine's network addresses (IPv6 in brackets) and host name.
 */
export function webHostNames(webHost: string): string[] {
  const bracket = (address: string) => (address.includes(":") ? `[${address}]` : address);
  if (!["0.0.0.0", "::", "[::]"].includes(webHost))
    return [bracket(webHost.replace(/^\[(.*)\]$/, "$1"))];
  const addresses = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => bracket(entry.address.replace(/%.*$/, "")));
  return [...new Set([...addresses, hostname()])];
}
