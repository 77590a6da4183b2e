import { describe, expect, test } from "vitest";
import { parseConfigText } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { chooseMode, withPersonasFlag } from "./resolve-run.js";

const config = (extra = "") =>
  parseConfigText(
    [
      "agents:",
      "  - {id: a, backend: {type: scripted}}",
      "  - {id: b, backend: {type: scripted}}",
      extra,
    ].join("\n"),
    { env: {} },
  ).config;

describe("chooseMode", () => {
  test("decomposition from the flag or the config; voting by default", () => {
    expect(chooseMode(config(), {})).toEqual({ mode: "voting", agentIndexes: [0, 1] });
    expect(chooseMode(config(), { coordinationMode: "decomposition" }).mode).toBe("decomposition");
    const yaml = config("orchestrator: {coordination_mode: decomposition}");
    expect(chooseMode(yaml, {}).mode).toBe("decomposition");
    expect(chooseMode(yaml, { coordinationMode: "voting" }).mode).toBe("voting");
  });

  test("one agent runs alone whatever the mode; --quick does not go with decomposition", () => {
    expect(chooseMode(config(), { coordinationMode: "decomposition", singleAgent: "b" })).toEqual({
      mode: "single",
      agentIndexes: [1],
    });
    expect(() => chooseMode(config(), { coordinationMode: "decomposition", quick: true })).toThrow(
      /--quick \(refine off\) does not go with coordination_mode decomposition/,
    );
  });

  test("an unknown mode names the known ones", () => {
    expect(() => chooseMode(config(), { coordinationMode: "swarm" })).toThrow(
      new ConfigError("--coordination-mode swarm: expected one of voting, decomposition"),
    );
  });
});

describe("withPersonasFlag", () => {
  test("a diversity mode turns persona generation on and keeps the config's other keys", () => {
    const base = config(
      "orchestrator: {coordination: {persona_generator: {persist_across_turns: true, persona_guidelines: g}}}",
    );
    expect(
      withPersonasFlag(base, "methodology").orchestrator.coordination.persona_generator,
    ).toEqual({
      enabled: true,
      diversity_mode: "methodology",
      persist_across_turns: true,
      persona_guidelines: "g",
    });
    expect(base.orchestrator.coordination.persona_generator.enabled).toBe(false); // not mutated
  });

  test("off turns a config's personas off; no flag leaves the config as is", () => {
    const base = config("orchestrator: {coordination: {persona_generator: {enabled: true}}}");
    expect(withPersonasFlag(base, "off").orchestrator.coordination.persona_generator.enabled).toBe(
      false,
    );
    expect(withPersonasFlag(base, undefined)).toBe(base);
  });

  test("an unknown value names the choices", () => {
    expect(() => withPersonasFlag(config(), "loud")).toThrow(
      "--personas loud: expected one of perspective, implementation, methodology, off",
    );
  });
});
