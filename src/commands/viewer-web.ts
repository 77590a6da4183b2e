/**
 * `coord viewer --web [--port N]` (spec §4.2 "Serve the viewer in a browser through a
 * terminal-in-browser server"): serves src/server/terminal-web.ts on 127.0.0.1; every browser
 * tab that opens the page gets its own `coord viewer <attempt dir>` in a pseudo-terminal, with the
 * same replay options. Runs until Ctrl+C (or SIGTERM).
 */
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandIO } from "./io.js";

/** Host the viewer's server binds: this machine only (the page drives a terminal). */
export const VIEWER_WEB_HOST = "127.0.0.1";

/** What to serve. */
export interface ViewerWebOptions {
  /** The attempt directory chosen (by LOG_DIR, --turn/--attempt or --pick). */
  attemptDir: string;
  replaySpeed: number | undefined;
  follow: boolean;
  /** 0 for a free port. */
  port: number;
}

/**
 * Serves until `io.signal` aborts, printing `Serving the viewer at http://127.0.0.1:PORT/` on
 * stdout first.
 * @returns 0.
 * @throws ConfigError when the port cannot be bound (names it; pick another with --port).
 */
export async function serveViewerWeb(options: ViewerWebOptions, io: CommandIO): Promise<number> {
  const { createTerminalWebApp } = await import("../server/terminal-web.js");
  const { startServer } = await import("../server/start-server.js");
  // The running CLI (the bundle, dist/bin/coord.js, or tsc's dist/src/cli.js).
  const cli = process.argv[1] ?? fileURLToPath(new URL("../cli.js", import.meta.url));
  const args = [
    cli,
    "viewer",
    options.attemptDir,
    ...(options.replaySpeed !== undefined ? ["--replay-speed", String(options.replaySpeed)] : []),
    ...(options.follow ? [] : ["--no-follow"]),
  ];
  const logName = basename(dirname(dirname(options.attemptDir)));
  const web = createTerminalWebApp({
    command: process.execPath,
    args,
    cwd: io.cwd,
    // The page's xterm.js is a live terminal even when this server runs under CI: without the CI
    // variables the viewer draws its Ink view (src/commands/ink-can-draw.ts).
    env: { ...io.env, CI: undefined, CONTINUOUS_INTEGRATION: undefined },
    title: `coord viewer · ${logName}`,
  });
  const server = await startServer(web.app, {
    host: VIEWER_WEB_HOST,
    port: options.port,
    onServer: (http) => web.injectWebSocket(http),
  });
  io.stdout.write(`Serving the viewer at ${server.url}/ (Ctrl+C to stop)\n`);
  await new Promise<void>((resolve) => {
    if (io.signal === undefined || io.signal.aborted) return resolve();
    io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  web.closeAll();
  server.closeAllConnections();
  await server.close({ graceMs: 0 });
  return 0;
}
