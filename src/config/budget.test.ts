/**
 * The run budget in the config (docs/real-models.md "The run budget"): `budget:` with `max_calls`,
 * `max_tokens`, `max_cost_usd` and the same three under `per_agent:`. Good values load; a value
 * that is not a positive integer (a positive number for USD) is refused at its file:line:column,
 * naming the key.
 */
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { parseConfigText } from "./load.js";

const TEAM = "agents:\n  - id: a\n    backend: { type: scripted }\n";

function problem(text: string): string {
  try {
    parseConfigText(text, { source: "team.yaml", env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("budget", () => {
  test("every key loads, run-level and per agent", () => {
    const { config, warnings } = parseConfigText(
      `${TEAM}budget:\n  max_calls: 40\n  max_tokens: 200000\n  max_cost_usd: 0.5\n  per_agent:\n    max_calls: 12\n    max_tokens: 50000\n    max_cost_usd: 0.25\n`,
      { env: {} },
    );
    expect(warnings).toEqual([]);
    expect(config.budget).toEqual({
      max_calls: 40,
      max_tokens: 200000,
      max_cost_usd: 0.5,
      per_agent: { max_calls: 12, max_tokens: 50000, max_cost_usd: 0.25 },
    });
  });

  test("without `budget:` every limit is left to the engine's default", () => {
    const { config } = parseConfigText(TEAM, { env: {} });
    expect(config.budget).toEqual({ per_agent: {} });
  });

  test.each([
    ["max_calls: 0", "budget.max_calls", "expected a number >= 1, received 0"],
    ["max_calls: 2.5", "budget.max_calls", "expected integer, received number"],
    ["max_tokens: -3", "budget.max_tokens", "expected a number >= 1, received -3"],
    ["max_cost_usd: 0", "budget.max_cost_usd", "expected a number > 0, received 0"],
    ["max_cost_usd: lots", "budget.max_cost_usd", "expected number, received string"],
  ])("`%s` is refused at its position, naming %s", (line, key, why) => {
    const message = problem(`${TEAM}budget:\n  ${line}\n`);
    expect(message).toMatch(/^team\.yaml:5:\d+: /);
    expect(message).toContain(`: ${key}: ${why}`);
  });

  test("a bad per-agent value is refused at its position, naming budget.per_agent.KEY", () => {
    const message = problem(`${TEAM}budget:\n  per_agent:\n    max_calls: 0\n`);
    expect(message).toMatch(/^team\.yaml:6:16: budget\.per_agent\.max_calls: /);
  });

  test("an unknown key under budget is a warning with its position, not a failure", () => {
    const { warnings } = parseConfigText(`${TEAM}budget:\n  max_call: 5\n`, {
      source: "team.yaml",
      env: {},
    });
    expect(warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(/^team\.yaml:5:3: unknown key budget\.max_call \(ignored\)/),
    ]);
  });
});
