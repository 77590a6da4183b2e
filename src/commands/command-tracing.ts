/**
 * Tracing for a command (docs/tracing.md): on with `--tracing` or `COORD_TRACING_ENABLED=true`,
 * opened once per process before any run starts, so a missing destination exits 1 at once.
 */
import { openTracing, type Tracing, tracingEnabledBy } from "../tracing/index.js";
import type { CommandIO } from "./io.js";

let tracingOpened = false;

/**
 * True once this process opened tracing: its exporter may still report a failed export after
 * `shutdown()` resolved, so the process must not exit before its event loop is empty.
 */
export function tracingWasOpened(): boolean {
  return tracingOpened;
}

/**
 * Opens tracing when the flag or the environment asks for it.
 * @param flag `--tracing`.
 * @param env the environment with `~/.config/coord/.env` merged in.
 * @param warn told of notes on the configuration and of the first export failure.
 * @returns undefined when tracing is off.
 * @throws ConfigError (exit 1) when `COORD_TRACING_ENABLED` is malformed, or tracing is on with
 *   nowhere to send spans (the message says how to log in or which variable to set).
 */
export async function openCommandTracing(
  flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
  io: Pick<CommandIO, "cwd" | "home" | "version">,
  warn: (message: string) => void,
): Promise<Tracing | undefined> {
  const enabledBy = tracingEnabledBy(flag, env);
  if (enabledBy === undefined) return undefined;
  tracingOpened = true;
  return openTracing({
    env,
    cwd: io.cwd,
    home: io.home,
    version: io.version,
    enabledBy,
    onWarning: warn,
  });
}
