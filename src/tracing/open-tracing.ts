/**
 * Turns tracing on for a command (docs/tracing.md): finds where spans go, then loads the
 * OpenTelemetry modules (only now: `coord --help` and untraced runs never load them).
 */
import { resolveDestination } from "./destination.js";
import type { Tracing } from "./types.js";

/** Options of {@link openTracing}. */
export interface OpenTracingOptions {
  /** The environment (with `~/.config/coord/.env` merged in). */
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory (Logfire's `.logfire/` credentials directory is relative to it). */
  cwd: string;
  home: string;
  /** coord's version (`service.version`). */
  version: string;
  /** What turned tracing on (`--tracing`, `COORD_TRACING_ENABLED`), for the error message. */
  enabledBy: string;
  /** Told of notes on the configuration and of the first export failure (one line each). */
  onWarning: (message: string) => void;
}

/**
 * Opens the process's tracing session.
 * @throws ConfigError (exit 1) when there is nowhere to send spans — the message says how to log
 *   in to Logfire or which variable to set — or a tracing variable is malformed.
 */
export async function openTracing(options: OpenTracingOptions): Promise<Tracing> {
  const destination = await resolveDestination(options);
  for (const warning of destination.warnings) options.onWarning(`tracing: ${warning}`);
  const { createTracing } = await import("./tracing-session.js");
  return createTracing({
    destination,
    serviceName: (options.env.OTEL_SERVICE_NAME ?? "").trim() || "coord",
    serviceVersion: options.version,
    onWarning: options.onWarning,
  });
}
