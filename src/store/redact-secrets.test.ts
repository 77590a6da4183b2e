/** Tests of the secret redaction applied to execution_metadata.yaml (redact-secrets.ts). */
import { describe, expect, it } from "vitest";
import { redactCliArgs, redactSecrets, REDACTED } from "./redact-secrets.js";

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
