/**
 * Where a run's spans go (docs/tracing.md "Where traces go"), read from the environment once
 * before any run starts:
 *
 * 1. any OpenTelemetry backend through the standard variables: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 *    (the full URL) or `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL; `/v1/traces` is appended),
 *    headers from `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TRACES_HEADERS`
 *    (`key=value,key2=value2`, percent-decoded; the traces ones win), compression from
 *    `OTEL_EXPORTER_OTLP_(TRACES_)COMPRESSION` (`gzip` or `none`);
 * 2. else Logfire (./logfire.ts): `LOGFIRE_TOKEN` or the project credentials file.
 *
 * The export timeout is `OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT` (ms), default
 * {@link DEFAULT_EXPORT_TIMEOUT_MS}: each export request and the flush at exit wait at most this
 * long. coord sends OTLP/HTTP with JSON bodies; `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` may be
 * `http/json`, `http/protobuf` (a warning: the body is JSON, which OTLP/HTTP receivers such as the
 * OpenTelemetry Collector and Logfire accept) but not `grpc`.
 */
import { ConfigError } from "../errors.js";
import { findLogfireToken, logfireBaseUrl, logfireLoggedIn } from "./logfire.js";

/** Default wait for one export request, and for the flush at exit (ms). */
export const DEFAULT_EXPORT_TIMEOUT_MS = 5000;

/** Where spans are sent and how. */
export interface TraceDestination {
  kind: "otlp" | "logfire";
  /** The full traces URL, e.g. `http://127.0.0.1:4318/v1/traces`. */
  url: string;
  /** Request headers (secrets: never printed or logged). */
  headers: Record<string, string>;
  compression: "gzip" | "none";
  /** Wait for one export request and for the flush at exit (ms). */
  timeoutMs: number;
  /** For messages: `Logfire (https://logfire-eu.pydantic.dev)` or the traces URL. */
  label: string;
  /** One-line notes for the user (a variable coord does not use, a protocol it does not speak). */
  warnings: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the destination from the environment.
 * @param context.enabledBy what turned tracing on, named in the error.
 * @throws ConfigError (exit 1) when there is nowhere to send spans (the message says how to log
 *   in to Logfire or which variable to set), or a variable is malformed (names it).
 */
export async function resolveDestination(context: {
  env: Env;
  cwd: string;
  home: string;
  enabledBy: string;
}): Promise<TraceDestination> {
  const { env } = context;
  const warnings = protocolWarnings(env);
  const timeoutMs = exportTimeoutMs(env);
  const otlp = otlpUrl(env);
  if (otlp !== undefined) {
    if ((env.LOGFIRE_TOKEN ?? "").trim() !== "") {
      warnings.push(
        `LOGFIRE_TOKEN is not used: ${otlp.variable} sends the traces to ${otlp.url} (unset it to use Logfire)`,
      );
    }
    return {
      kind: "otlp",
      url: otlp.url,
      headers: otlpHeaders(env),
      compression: compression(env),
      timeoutMs,
      label: otlp.url,
      warnings,
    };
  }
  const token = await findLogfireToken(env, context.cwd);
  if (token === undefined) throw new ConfigError(noDestinationMessage(context));
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) {
    // The exporter would add them to every request: never hand one backend's headers to another.
    if ((env[name] ?? "") !== "") {
      throw new ConfigError(
        `${name} is set but no OTEL_EXPORTER_OTLP_ENDPOINT: set the endpoint those headers are for, or unset ${name} to send to Logfire`,
      );
    }
  }
  const base = (env.LOGFIRE_BASE_URL ?? "").trim() || logfireBaseUrl(token.token);
  const url = httpUrl(joinPath(base, "v1/traces"), "LOGFIRE_BASE_URL");
  return {
    kind: "logfire",
    url,
    headers: { Authorization: token.token },
    compression: "gzip",
    timeoutMs,
    label: `Logfire (${base})`,
    warnings,
  };
}

/** The one-line error for tracing with nowhere to send. */
function noDestinationMessage(context: { home: string; cwd: string; enabledBy: string }): string {
  const login = logfireLoggedIn(context.home)
    ? `you are logged in to Logfire but have no project write token here: run \`logfire projects use <project>\` in ${context.cwd}, or set LOGFIRE_TOKEN`
    : "log in to Logfire (`logfire auth`, then `logfire projects use <project>`) or set LOGFIRE_TOKEN to a project write token";
  return `tracing (${context.enabledBy}) needs somewhere to send traces: ${login}; or set OTEL_EXPORTER_OTLP_ENDPOINT for another OpenTelemetry backend (docs/tracing.md)`;
}

/** The traces URL from the OTLP variables, and the variable it came from. */
function otlpUrl(env: Env): { url: string; variable: string } | undefined {
  const traces = (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? "").trim();
  if (traces !== "") {
    return {
      url: httpUrl(traces, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
      variable: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    };
  }
  const base = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").trim();
  if (base === "") return undefined;
  httpUrl(base, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return {
    url: httpUrl(joinPath(base, "v1/traces"), "OTEL_EXPORTER_OTLP_ENDPOINT"),
    variable: "OTEL_EXPORTER_OTLP_ENDPOINT",
  };
}

function joinPath(base: string, path: string): string {
  return base.endsWith("/") ? `${base}${path}` : `${base}/${path}`;
}

/** `value` as an http(s) URL string. @throws ConfigError naming `variable`. */
function httpUrl(value: string, variable: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `${variable}=${JSON.stringify(value)} is not a URL: use e.g. http://127.0.0.1:4318`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      `${variable}=${JSON.stringify(value)}: coord sends OTLP over HTTP, use an http:// or https:// URL`,
    );
  }
  return url.href;
}

/**
 * `OTEL_EXPORTER_OTLP_HEADERS` then `OTEL_EXPORTER_OTLP_TRACES_HEADERS` (which win), each a
 * comma-separated list of `key=value` with percent-encoded values.
 * @throws ConfigError for an entry without `=` (the value is not echoed: it may be a secret).
 */
export function otlpHeaders(env: Env): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) {
    const raw = env[name] ?? "";
    for (const [index, entry] of raw.split(",").entries()) {
      if (entry.trim() === "") continue;
      const equals = entry.indexOf("=");
      const key = equals > 0 ? entry.slice(0, equals).trim() : "";
      if (key === "") {
        throw new ConfigError(
          `${name}: entry ${index + 1} is not key=value (use e.g. Authorization=Bearer%20<token>,x-team=coord)`,
        );
      }
      let value = entry.slice(equals + 1).trim();
      try {
        value = decodeURIComponent(value);
      } catch {
        // Not percent-encoded: taken as written.
      }
      headers[key] = value;
    }
  }
  return headers;
}

function compression(env: Env): "gzip" | "none" {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION
    ? "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"
    : "OTEL_EXPORTER_OTLP_COMPRESSION";
  const value = (env[name] ?? "").trim().toLowerCase();
  if (value === "" || value === "none") return "none";
  if (value === "gzip") return "gzip";
  throw new ConfigError(`${name}=${JSON.stringify(env[name])}: use gzip or none`);
}

/** The export timeout (ms). @throws ConfigError for a value that is not a positive integer. */
export function exportTimeoutMs(env: Env): number {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"]) {
    const raw = (env[name] ?? "").trim();
    if (raw === "") continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) {
      throw new ConfigError(
        `${name}=${JSON.stringify(raw)}: use a positive number of milliseconds`,
      );
    }
    return value;
  }
  return DEFAULT_EXPORT_TIMEOUT_MS;
}

function protocolWarnings(env: Env): string[] {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const value = (env[name] ?? "").trim().toLowerCase();
  if (value === "" || value === "http/json") return [];
  if (value === "http/protobuf") {
    return [
      `${name}=http/protobuf: coord sends OTLP/HTTP with JSON bodies, which OTLP/HTTP receivers (the OpenTelemetry Collector, Logfire) accept`,
    ];
  }
  throw new ConfigError(
    `${name}=${JSON.stringify(env[name])}: coord sends OTLP over HTTP (JSON); use http/json and the collector's HTTP endpoint (port 4318), not gRPC`,
  );
}
