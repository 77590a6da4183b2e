/**
 * Where spans go: the OTLP variables, Logfire's token (environment, credentials file) and its
 * region, the one-line errors, and COORD_TRACING_ENABLED.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { DEFAULT_EXPORT_TIMEOUT_MS, otlpHeaders, resolveDestination } from "./destination.js";
import { tracingEnabledBy } from "./enabled.js";
import { logfireBaseUrl } from "./logfire.js";
import { formatTraceparent, parseTraceparent } from "./traceparent.js";

async function dirs() {
  const root = await mkdtemp(join(tmpdir(), "coord-tracing-"));
  const cwd = join(root, "work");
  const home = join(root, "home");
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  return { cwd, home };
}

const resolve = async (env: Record<string, string>, where?: { cwd: string; home: string }) =>
  resolveDestination({ env, ...(where ?? (await dirs())), enabledBy: "--tracing" });

describe("tracing destination", () => {
  test("OTEL_EXPORTER_OTLP_ENDPOINT: /v1/traces appended, headers decoded, traces headers win", async () => {
    const destination = await resolve({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20abc,x-team=coord",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=tracing",
    });
    expect(destination).toMatchObject({
      kind: "otlp",
      url: "http://127.0.0.1:4318/v1/traces",
      headers: { Authorization: "Bearer abc", "x-team": "tracing" },
      compression: "none",
      timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS,
      warnings: [],
    });
  });

  test("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as is, and beats the base endpoint", async () => {
    const destination = await resolve({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/custom/traces",
      OTEL_EXPORTER_OTLP_TIMEOUT: "1500",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
    });
    expect(destination.url).toBe("http://collector:4318/custom/traces");
    expect(destination.timeoutMs).toBe(1500);
    expect(destination.compression).toBe("gzip");
  });

  test("bad variables are one-line errors naming them; headers' values are not echoed", async () => {
    await expect(resolve({ OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" })).rejects.toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT="localhost:4318": coord sends OTLP over HTTP/,
    );
    await expect(
      resolve({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    ).rejects.toThrow(/not gRPC/);
    await expect(
      resolve({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_EXPORTER_OTLP_TIMEOUT: "soon" }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT="soon"/);
    expect(() => otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: "a=1,secretvalue" })).toThrow(
      /entry 2 is not key=value/,
    );
    expect(() => otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: "a=1,secretvalue" })).not.toThrow(
      /secretvalue/,
    );
  });

  test("http/protobuf is a warning (the body is JSON); LOGFIRE_TOKEN beside an endpoint too", async () => {
    const destination = await resolve({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      LOGFIRE_TOKEN: "pylf_v1_us_abc",
    });
    expect(destination.warnings).toEqual([
      expect.stringMatching(/http\/protobuf: coord sends OTLP\/HTTP with JSON bodies/),
      expect.stringMatching(/LOGFIRE_TOKEN is not used: OTEL_EXPORTER_OTLP_ENDPOINT sends/),
    ]);
  });

  test("Logfire from LOGFIRE_TOKEN: the region's endpoint, the token as Authorization, gzip", async () => {
    const destination = await resolve({ LOGFIRE_TOKEN: "pylf_v1_eu_Secret123" });
    expect(destination).toMatchObject({
      kind: "logfire",
      url: "https://logfire-eu.pydantic.dev/v1/traces",
      headers: { Authorization: "pylf_v1_eu_Secret123" },
      compression: "gzip",
      label: "Logfire (https://logfire-eu.pydantic.dev)",
    });
    const local = await resolve({
      LOGFIRE_TOKEN: "pylf_v1_us_Secret123",
      LOGFIRE_BASE_URL: "http://127.0.0.1:9999/",
    });
    expect(local.url).toBe("http://127.0.0.1:9999/v1/traces");
  });

  test("regions: us, eu; tokens from before regions and unknown regions go to the US", () => {
    expect(logfireBaseUrl("pylf_v1_us_abc")).toBe("https://logfire-us.pydantic.dev");
    expect(logfireBaseUrl("pylf_v1_eu_abc")).toBe("https://logfire-eu.pydantic.dev");
    expect(logfireBaseUrl("pylf_v2_mars_abc")).toBe("https://logfire-us.pydantic.dev");
    expect(logfireBaseUrl("0123456789abcdef")).toBe("https://logfire-us.pydantic.dev");
  });

  test("Logfire from the credentials file (.logfire/ or LOGFIRE_CREDENTIALS_DIR)", async () => {
    const where = await dirs();
    await mkdir(join(where.cwd, ".logfire"));
    await writeFile(
      join(where.cwd, ".logfire", "logfire_credentials.json"),
      JSON.stringify({
        token: "pylf_v1_eu_FromFile",
        project_name: "coord",
        project_url: "https://logfire-eu.pydantic.dev/me/coord",
        logfire_api_url: "https://attacker.example",
      }),
    );
    const destination = await resolve({}, where);
    expect(destination.headers).toEqual({ Authorization: "pylf_v1_eu_FromFile" });
    // The file's logfire_api_url does not choose where tokens go: the token's region does.
    expect(destination.url).toBe("https://logfire-eu.pydantic.dev/v1/traces");
    // The environment's token wins over the file's.
    const fromEnv = await resolve({ LOGFIRE_TOKEN: "pylf_v1_us_FromEnv" }, where);
    expect(fromEnv.headers).toEqual({ Authorization: "pylf_v1_us_FromEnv" });

    await mkdir(join(where.cwd, "creds"));
    await writeFile(join(where.cwd, "creds", "logfire_credentials.json"), "{not json");
    await expect(resolve({ LOGFIRE_CREDENTIALS_DIR: "creds" }, where)).rejects.toThrow(
      /creds\/logfire_credentials.json is not valid JSON: run `logfire projects use <project>`/,
    );
  });

  test("nowhere to send: one line saying how to log in and which variable to set", async () => {
    const where = await dirs();
    const error = await resolve({}, where).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(
      /^tracing \(--tracing\) needs somewhere to send traces: log in to Logfire \(`logfire auth`, then `logfire projects use <project>`\) or set LOGFIRE_TOKEN/,
    );
    expect(message).toContain("OTEL_EXPORTER_OTLP_ENDPOINT");
    // Logged in (the login's user tokens) but no project token: say what is missing.
    await mkdir(join(where.home, ".logfire"));
    await writeFile(join(where.home, ".logfire", "default.toml"), "[tokens]\n");
    await expect(resolve({}, where)).rejects.toThrow(
      /you are logged in to Logfire but have no project write token here: run `logfire projects use <project>`/,
    );
  });

  test("OTLP headers without an endpoint are never handed to Logfire", async () => {
    await expect(
      resolve({ LOGFIRE_TOKEN: "pylf_v1_us_abc", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=zzz" }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_HEADERS is set but no OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});

describe("COORD_TRACING_ENABLED and traceparent", () => {
  test("the flag or true/1/yes/on turns tracing on; false/0/no/off/empty off; else an error", () => {
    expect(tracingEnabledBy(true, {})).toBe("--tracing");
    for (const value of ["true", "TRUE", "1", "yes", "on"])
      expect(tracingEnabledBy(undefined, { COORD_TRACING_ENABLED: value })).toBe(
        "COORD_TRACING_ENABLED",
      );
    for (const value of ["false", "0", "no", "off", ""])
      expect(tracingEnabledBy(undefined, { COORD_TRACING_ENABLED: value })).toBeUndefined();
    expect(tracingEnabledBy(undefined, {})).toBeUndefined();
    expect(() => tracingEnabledBy(undefined, { COORD_TRACING_ENABLED: "maybe" })).toThrow(
      /COORD_TRACING_ENABLED="maybe": use true or false/,
    );
  });

  test("traceparent: version 00 parsed; malformed or all-zero ids refused", () => {
    const header = formatTraceparent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    expect(header).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    expect(parseTraceparent(header)).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    expect(parseTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBe(
      undefined,
    );
    expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBe(
      undefined,
    );
    expect(parseTraceparent(undefined)).toBeUndefined();
  });
});
