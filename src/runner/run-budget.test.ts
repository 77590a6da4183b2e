/**
 * The run budget from config and flags: the flags override the config's
 * run-level keys, the engine gets only the limits that were set (it fills in its defaults), and
 * the defaults the config reference documents are the engine's.
 */
import { describe, expect, test } from "vitest";
import { BudgetConfig, parseConfigText } from "../config/index.js";
import { defaultBudget, DEFAULT_CALLS_PER_AGENT, DEFAULT_EXTRA_CALLS } from "../engine/index.js";
import { runBudgetOf, withBudgetFlags } from "./run-budget.js";

const TEAM = "agents:\n  - id: a\n    backend: { type: scripted }\n";
const configOf = (yaml: string) => parseConfigText(`${TEAM}${yaml}`, { env: {} }).config;

describe("withBudgetFlags", () => {
  test("the flags override the config's run limits and keep its per-agent limits", () => {
    const config = configOf(
      "budget:\n  max_calls: 100\n  max_tokens: 5000\n  per_agent:\n    max_calls: 9\n",
    );
    const flagged = withBudgetFlags(config, { maxCalls: 4, maxCostUsd: 0.25 });
    expect(flagged.budget).toEqual({
      max_calls: 4,
      max_tokens: 5000,
      max_cost_usd: 0.25,
      per_agent: { max_calls: 9 },
    });
    expect(config.budget.max_calls).toBe(100);
  });

  test("without a flag the config is returned as it is", () => {
    const config = configOf("budget:\n  max_calls: 100\n");
    expect(withBudgetFlags(config, {})).toBe(config);
  });
});

describe("runBudgetOf", () => {
  test("gives the engine every limit that is set, in its names", () => {
    const config = configOf(
      "budget:\n  max_calls: 12\n  max_tokens: 3000\n  max_cost_usd: 0.5\n  per_agent:\n    max_tokens: 900\n",
    );
    expect(runBudgetOf(config.budget)).toEqual({
      maxCalls: 12,
      maxTokens: 3000,
      maxCostUsd: 0.5,
      perAgent: { maxTokens: 900 },
    });
  });

  test("gives nothing for a config without budget: the engine's defaults apply", () => {
    expect(runBudgetOf(configOf("").budget)).toEqual({});
  });
});

describe("the documented defaults", () => {
  test("budget.max_calls and budget.per_agent.max_calls say what defaultBudget does", () => {
    const three = defaultBudget(3);
    expect(BudgetConfig.shape.max_calls.description).toContain(
      `Default: ${DEFAULT_CALLS_PER_AGENT} per agent + ${DEFAULT_EXTRA_CALLS} (${three.maxCalls} for a team of three)`,
    );
    expect(BudgetConfig.shape.per_agent.unwrap().shape.max_calls.description).toContain(
      `Default: ${three.perAgent?.maxCalls}.`,
    );
    expect(three.maxTokens).toBeUndefined();
    expect(BudgetConfig.shape.max_tokens.description).toContain("Default: no limit.");
    expect(three.maxCostUsd).toBeUndefined();
    expect(BudgetConfig.shape.max_cost_usd.description).toContain("Default: no limit.");
  });

  test("the config reference's introduction says the same", async () => {
    const { renderConfigReference } = await import("../config/docs.js");
    const text = renderConfigReference().replace(/\s+/g, " ");
    expect(text).toContain(
      `at most ${DEFAULT_CALLS_PER_AGENT} model calls per agent + ${DEFAULT_EXTRA_CALLS} for the run and ${defaultBudget(1).perAgent?.maxCalls} per agent`,
    );
  });
});
