/** The one redactor (src/redact.ts): known values, key shapes, deep values, guarded streams. */
import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import {
  REDACTED,
  redact,
  redactStrings,
  redactWrites,
  registerConfigSecrets,
  registerEnvSecrets,
  registerSecret,
} from "./redact.js";

describe("redact", () => {
  test("a registered value is replaced wherever it appears, also JSON-escaped", () => {
    const value = 'unit-known"value\\0123';
    registerSecret(value);
    expect(redact(`before ${value} after`)).toBe(`before ${REDACTED} after`);
    const json = JSON.stringify({ message: `echo ${value}` });
    expect(JSON.parse(redact(json))).toEqual({ message: `echo ${REDACTED}` });
  });

  test("short values, blanks and ${VAR} references are never registered", () => {
    registerSecret("short");
    registerSecret("   ");
    registerSecret("${UNIT_TEST_REFERENCE_VAR}");
    expect(redact("short ${UNIT_TEST_REFERENCE_VAR}")).toBe("short ${UNIT_TEST_REFERENCE_VAR}");
  });

  test("the environment's secret-named variables are registered, others are not", () => {
    registerEnvSecrets({
      UNIT_API_KEY: "env-api-key-value-1",
      UNIT_AUTH_TOKEN: "env-token-value-22",
      UNIT_CLIENT_SECRET: "env-secret-value-333",
      UNIT_DB_PASSWORD: "env-password-value",
      UNIT_HOME_DIR: "/home/not-a-secret",
    });
    expect(
      redact("env-api-key-value-1 env-token-value-22 env-secret-value-333 env-password-value"),
    ).toBe([REDACTED, REDACTED, REDACTED, REDACTED].join(" "));
    expect(redact("/home/not-a-secret")).toBe("/home/not-a-secret");
  });

  test("a config's secret-named keys are registered at any depth; numbers and other keys are not", () => {
    registerConfigSecrets({
      agents: [{ backend: { api_key: "config-key-unit-1", model: "model-name-unit" } }],
      extra: { headers: { Authorization: "config-auth-unit-22" } },
      max_tokens: 12345678,
    });
    expect(redact("config-key-unit-1 config-auth-unit-22 model-name-unit 12345678")).toBe(
      `${REDACTED} ${REDACTED} model-name-unit 12345678`,
    );
  });

  test("usual key shapes and key headers, without knowing the value", () => {
    expect(redact("Incorrect API key provided: sk-proj-abcdefgh12345")).toBe(
      `Incorrect API key provided: ${REDACTED}`,
    );
    expect(redact("Authorization: Bearer abc.def-ghi_123")).toBe(`Authorization: ${REDACTED}`);
    expect(redact("x-api-key: shapeless-value-99")).toBe(`x-api-key: ${REDACTED}`);
    expect(redact('{"api-key":"shapeless-value-98"}')).toBe(`{"api-key":"${REDACTED}"}`);
    expect(redact("x-goog-api-key=shapeless-value-97")).toBe(`x-goog-api-key=${REDACTED}`);
    expect(redact("AIzaSyA1234567890123456789012345678901")).toBe(REDACTED);
    expect(redact("ghp_0123456789abcdefghij0123")).toBe(REDACTED);
    expect(redact("nothing to see: sk-1, max_tokens 4096")).toBe(
      "nothing to see: sk-1, max_tokens 4096",
    );
  });
});

describe("redactStrings", () => {
  test("returns the very same value when nothing changes (no copies per event)", () => {
    const event = { type: "text-delta", text: "plain", nested: [{ a: "b" }], n: 1 };
    expect(redactStrings(event)).toBe(event);
  });

  test("replaces inside nested strings without touching keys or the input", () => {
    const input = { key: "sk-proj-abcdefgh12345", list: ["ok", "Bearer abcdefgh123"], n: 2 };
    const before = structuredClone(input);
    expect(redactStrings(input)).toEqual({ key: REDACTED, list: ["ok", REDACTED], n: 2 });
    expect(input).toEqual(before);
  });
});

describe("redactWrites", () => {
  test("strings and UTF-8 buffers written to a guarded stream are redacted", () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString("utf8"));
        done();
      },
    });
    redactWrites(stream);
    redactWrites(stream); // idempotent
    stream.write("key sk-proj-abcdefgh12345\n");
    stream.write(Buffer.from("é Bearer abcdefgh123\n", "utf8"));
    expect(chunks.join("")).toBe(`key ${REDACTED}\né ${REDACTED}\n`);
  });
});

test("prose after an api_key: label is not taken for a key; a key-shaped value still is", () => {
  const message =
    "agents[0].backend.api_key: environment variable MY_API_KEY is not set; x-api-key: abcd1234efgh";
  expect(redact(message)).toBe(
    "agents[0].backend.api_key: environment variable MY_API_KEY is not set; x-api-key: <redacted>",
  );
});
