/**
 * Values the schema must refuse with a message that names the dotted key and says what was
 * wrong: durations past Node's timer limit (they would fire at once),
 * numbers too large to represent (`1e309`), and a `base_url` that is not http(s).
 */
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { parseConfigText } from "./load.js";

const agent = (backend: string) => `agents:\n  - id: a\n    backend: ${backend}\n`;

function problem(text: string): string {
  try {
    parseConfigText(text, { source: "team.yaml", env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("config limits", () => {
  test.each([
    "orchestrator_timeout_seconds",
    "request_timeout_seconds",
    "first_byte_timeout_seconds",
    "stream_idle_timeout_seconds",
    "straggler_timeout_seconds",
  ])("timeout_settings.%s above the timer limit is refused, naming the key", (key) => {
    const message = problem(`${agent("{ type: scripted }")}timeout_settings:\n  ${key}: 2147484\n`);
    expect(message).toMatch(/^team\.yaml:5:\d+: /);
    expect(message).toContain(
      `: timeout_settings.${key}: expected a number <= 2147483 (Node's timer limit, about 24.8 days), received 2147484`,
    );
  });

  test("the limit itself is accepted", () => {
    const { config } = parseConfigText(
      `${agent("{ type: scripted }")}timeout_settings:\n  orchestrator_timeout_seconds: 2147483\n`,
      { env: {} },
    );
    expect(config.timeout_settings.orchestrator_timeout_seconds).toBe(2147483);
  });

  test("a scripted delay_ms above the timer limit is refused", () => {
    expect(
      problem(agent("{ type: scripted, steps: [{ answer: x, delay_ms: 3000000000 }] }")),
    ).toContain(
      "agents[0].backend.steps[0].delay_ms: expected a number <= 2147483647 (Node's timer limit, about 24.8 days)",
    );
  });

  test("1e309 and .nan say what was wrong instead of 'expected number, received number'", () => {
    const huge = problem(
      `${agent("{ type: scripted }")}timeout_settings:\n  request_timeout_seconds: 1e309\n`,
    );
    expect(huge).toContain(
      ": timeout_settings.request_timeout_seconds: expected a finite number, received Infinity (a number too large to represent, such as 1e309)",
    );
    expect(problem(`${agent("{ type: scripted, temperature: .nan }")}`)).toContain(
      "agents[0].backend.temperature: expected a finite number, received NaN (.nan)",
    );
  });

  test.each(["file:///etc/passwd", "ftp://host/v1", "localhost:1234/v1", "not a url"])(
    "base_url %s is refused: http:// or https:// only",
    (url) => {
      expect(problem(agent(`{ type: chatcompletion, model: m, base_url: "${url}" }`))).toBe(
        `team.yaml:3:58: agents[0].backend.base_url: expected an http:// or https:// URL, received ${JSON.stringify(url)}`,
      );
    },
  );

  test("http and https base URLs load", () => {
    for (const url of ["http://127.0.0.1:1234/v1", "https://openrouter.ai/api/v1"]) {
      const { config } = parseConfigText(
        agent(`{ type: chatcompletion, model: m, base_url: "${url}" }`),
        {
          env: {},
        },
      );
      expect(config.agents[0]!.backend.base_url).toBe(url);
    }
  });

  test("a YAML alias inside its own anchor is a config error, not a stack overflow (found by the fuzz)", () => {
    expect(problem("agents: &a [*a]\n")).toBe(
      "team.yaml: invalid YAML: an alias (*name) refers to a node that contains it, so the config never ends; copy the values instead",
    );
  });
});
