/** Tests of the secret redaction applied to execution_metadata.yaml (redact-secrets.ts). */
import { describe, expect, it } from "vitest";
import {
  collectSecretValues,
  redactCliArgs,
  redactSecrets,
  redactText,
  REDACTED,
} from "./redact-secrets.js";

describe("redactSecrets", () => {
  it("redacts secret-named keys and key-like values, keeps the rest", () => {
    const input = {
      api_key: "abc123",
      openai_key: "xyz",
      apiKey: "camel",
      accessToken: "tok",
      client_secret: "s",
      password: "p",
      headers: { Authorization: "Bearer abcdefghijkl", "X-Trace": "1" },
      secrets: { nested: ["one", 2] },
      max_tokens: 1000,
      tokenizer_enabled: true,
      env_ref: "${ANTHROPIC_API_KEY}",
      base_url: "https://example.com/v1?key=sk-proj-ABCDEFGH12345678",
      note: "uses key AIzaSyA1234567890123456789012345678901 for search",
      model: "gpt-4o",
      list: [{ token: "t" }, "plain"],
      hotkey: "ctrl-k",
    };
    const before = structuredClone(input);
    expect(redactSecrets(input)).toEqual({
      api_key: REDACTED,
      openai_key: REDACTED,
      apiKey: REDACTED,
      accessToken: REDACTED,
      client_secret: REDACTED,
      password: REDACTED,
      headers: { Authorization: REDACTED, "X-Trace": "1" },
      secrets: { nested: [REDACTED, 2] },
      max_tokens: 1000,
      tokenizer_enabled: true,
      env_ref: "${ANTHROPIC_API_KEY}",
      base_url: `https://example.com/v1?key=${REDACTED}`,
      note: `uses key ${REDACTED} for search`,
      model: "gpt-4o",
      list: [{ token: REDACTED }, "plain"],
      hotkey: "ctrl-k",
    });
    expect(input).toEqual(before);
  });

  it("survives cycles and odd values", () => {
    const cyclic: Record<string, unknown> = { name: "x", when: new Date(0), fn: () => 1 };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic)).toEqual({
      name: "x",
      when: "1970-01-01T00:00:00.000Z",
      self: "[Circular]",
    });
    expect(redactSecrets("sk-abcdefghijklmnop")).toBe(REDACTED);
    expect(redactSecrets(null)).toBeNull();
  });
});

describe("redactCliArgs", () => {
  it("redacts the values of secret flags and key-like arguments", () => {
    expect(
      redactCliArgs([
        "--api-key",
        "abc",
        "--token=xyz",
        "--max-tokens",
        "100",
        "--model",
        "gpt-x",
        "sk-abcdefghijklmnop",
        "--secret",
        "--debug",
        "question",
      ]),
    ).toEqual([
      "--api-key",
      REDACTED,
      `--token=${REDACTED}`,
      "--max-tokens",
      "100",
      "--model",
      "gpt-x",
      REDACTED,
      "--secret",
      "--debug",
      "question",
    ]);
  });
});

describe("redactText (everything coord export uploads)", () => {
  it("removes known key values, credential shapes and secret-named values; keeps the rest", () => {
    const known = collectSecretValues({
      env: { MY_PROVIDER_API_KEY: "plainvalue-without-shape-123", HOME: "/home/someone" },
    });
    const text = [
      '{"type":"agent-error","message":"401: invalid key plainvalue-without-shape-123"}',
      '{"api_key": "abc-def-ghi", "max_tokens": 4096, "inputTokens": 12, "env": "${OPENAI_API_KEY}"}',
      "OPENAI_API_KEY=sk-proj-ABCDEFGH12345678",
      "x-api-key: anthropic-style-value",
      "Authorization: Bearer abcdefghijklmnop",
      "token=tok_12345678 and password: hunter2hunter2",
      "gsk_ABCDEFGHIJKLMNOPQRSTUVWX pplx-ABCDEFGHIJKLMNOPQRSTUVWX xoxb-1234567890-abcdef",
      "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      "The capital of France is Paris. Tokens: 12.",
    ].join("\n");
    const out = redactText(text, known);
    for (const secret of [
      "plainvalue-without-shape-123",
      "abc-def-ghi",
      "sk-proj-ABCDEFGH12345678",
      "anthropic-style-value",
      "abcdefghijklmnop",
      "tok_12345678",
      "hunter2hunter2",
      "gsk_ABCDEFGHIJKLMNOPQRSTUVWX",
      "pplx-ABCDEFGHIJKLMNOPQRSTUVWX",
      "xoxb-1234567890-abcdef",
      "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('"max_tokens": 4096');
    expect(out).toContain('"inputTokens": 12');
    expect(out).toContain('"env": "${OPENAI_API_KEY}"');
    expect(out).toContain("The capital of France is Paris. Tokens: 12.");
    expect(out).toContain(`invalid key ${REDACTED}`);
    expect(out).toContain(`"api_key": "${REDACTED}"`);
    expect(redactText("home is /home/someone", known)).toBe("home is /home/someone");
  });

  it("collects secret values from the environment and from secret-named config keys", () => {
    expect(
      collectSecretValues({
        env: { GH_TOKEN: "ghtokenvalue1", SHORT_KEY: "abc", PATH: "/usr/bin:/bin" },
        values: [
          {
            agents: [{ backend: { api_key: "literal-config-key", model: "gpt-4o" } }],
            other: { api_key: "${FROM_ENV}" },
          },
        ],
      }),
    ).toEqual(["literal-config-key", "ghtokenvalue1"]);
  });
});
