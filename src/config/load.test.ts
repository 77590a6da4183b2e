import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { BACKEND_TYPES } from "./backend-types.js";
import { listExamples, resolveConfigPath } from "./examples.js";
import { loadConfigFile, parseConfigText } from "./load.js";

/** Runs `parseConfigText` and returns the ConfigError it throws. */
function configError(text: string, env: Record<string, string> = {}): ConfigError {
  try {
    parseConfigText(text, { source: "c.yaml", env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const yaml = (lines: string[]): string => `${lines.join("\n")}\n`;

describe("built-in examples", () => {
  it.each(listExamples())("%s loads without warnings", async (name) => {
    const loaded = await loadConfigFile(resolveConfigPath(`@examples/${name}`, "/"), { env: {} });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.config.agents.length).toBeGreaterThan(0);
  });

  it("ships the single agent, three-agent, local and scripted examples", () => {
    expect(listExamples()).toEqual(
      expect.arrayContaining(["single_agent", "three_agents", "local_team", "scripted_team"]),
    );
  });

  it("points the local team at $COORD_LOCAL_MODEL, else ./model.gguf", async () => {
    const path = resolveConfigPath("@examples/local_team", "/");
    const unset = await loadConfigFile(path, { env: {} });
    expect(unset.config.agents.map((agent) => agent.backend.model)).toEqual([
      "./model.gguf",
      "./model.gguf",
    ]);
    const set = await loadConfigFile(path, { env: { COORD_LOCAL_MODEL: "/m/tiny.gguf" } });
    expect(set.config.agents[0]?.backend.type).toBe("local");
    expect(set.config.agents[1]?.backend.model).toBe("/m/tiny.gguf");
  });
});

describe("MassGen compatibility", () => {
  const massgen = yaml([
    "# a config written for MassGen",
    "agents:",
    '  - id: "gpt5nano"',
    "    backend:",
    '      type: "openai"',
    '      model: "gpt-5-nano"',
    "      enable_web_search: true",
    "      reasoning:",
    '        effort: "medium"',
    "    temperature_hint: 3",
    "  - backend:",
    "      type: zai",
    "      model: glm-4.5",
    "orchestrator:",
    '  snapshot_storage: "snapshots"',
    "  context_paths:",
    "    - path: ./src",
    "      permission: write",
    "      protected_paths: [a]",
    "ui:",
    '  type: "rich_terminal"',
    "  logging_enabled: true",
    "timeout_settings:",
    "  orchestrator_timeout_seconds: 60",
    "  initial_round_timeout_seconds: 10",
  ]);

  it("loads, with one positioned warning per unknown key", () => {
    const { config, warnings } = parseConfigText(massgen, { source: "mg.yaml", env: {} });
    expect(warnings.map((warning) => warning.message)).toEqual([
      "mg.yaml:10:5: unknown key agents[0].temperature_hint (ignored)",
      "mg.yaml:21:3: ui.type: use ui.display_type instead (ignored)",
      "mg.yaml:25:3: timeout_settings.initial_round_timeout_seconds: not supported in coord: MassGen's per-round timeouts (coord bounds each request: request_timeout_seconds, and the run: orchestrator_timeout_seconds) (ignored)",
    ]);
    expect(warnings[0]).toMatchObject({
      file: "mg.yaml",
      path: "agents[0].temperature_hint",
      line: 10,
      column: 5,
    });
    expect(config.agents[0]?.backend).toMatchObject({
      type: "openai",
      enable_web_search: true,
      reasoning: { effort: "medium" },
    });
    expect(config.agents[1]?.id).toBe("agent_a");
    expect(config.orchestrator.context_paths).toEqual([
      { path: "./src", permission: "write", protected_paths: ["a"] },
    ]);
    expect(config.orchestrator.snapshot_storage).toBe("snapshots");
    expect(config.timeout_settings).toMatchObject({
      orchestrator_timeout_seconds: 60,
      request_timeout_seconds: 300,
    });
  });

  it("reads a top-level `agent:` as a one-agent team; warnings name the key as written", () => {
    const { config, warnings } = parseConfigText(
      yaml([
        "agent:",
        '  id: "grok_agent"',
        "  backend:",
        "    type: grok",
        "    model: grok-3-mini",
        "    extra_body: {search_parameters: {mode: auto}}",
        "  system_message: You are helpful",
        "  color: blue",
      ]),
      { source: "g.yaml", env: {} },
    );
    expect(config.agents).toHaveLength(1);
    expect(config.agents[0]).toMatchObject({ id: "grok_agent", system_message: "You are helpful" });
    expect(warnings.map((warning) => warning.message)).toEqual([
      "g.yaml:8:3: unknown key agent.color (ignored)",
    ]);
  });

  it("gives agents without an id agent_a, agent_b, … skipping ids in use", () => {
    const { config } = parseConfigText(
      yaml([
        "agents:",
        "  - backend: {type: scripted}",
        "  - id: agent_b",
        "    backend: {type: scripted}",
        "  - backend: {type: scripted}",
      ]),
      { env: {} },
    );
    expect(config.agents.map((agent) => agent.id)).toEqual(["agent_a", "agent_b", "agent_c"]);
    expect(config.agents[0]?.backend.model).toBe("scripted");
  });

  it("treats keys with no value as absent and fills in defaults", () => {
    const { config } = parseConfigText(
      yaml([
        "agents:",
        "  - id: a",
        "    backend: {type: openai, model: m}",
        "orchestrator:",
        "ui:",
      ]),
      { env: {} },
    );
    expect(config.orchestrator.voting_sensitivity).toBe("lenient");
    expect(config.ui.display_type).toBe("rich_terminal");
  });

  it("rejects `agent:` together with `agents:`", () => {
    const error = configError(
      yaml(["agents:", "  - backend: {type: scripted}", "agent:", "  backend: {type: scripted}"]),
    );
    expect(error.message).toBe(
      "c.yaml:4:3: agent: use either `agent:` (one agent) or `agents:` (a list), not both",
    );
  });
});

describe("positioned errors", () => {
  it("reports broken YAML at its line and column", () => {
    const error = configError(yaml(["agents:", "  - id: a", "    backend: [openai", "ui: {}"]));
    expect(error.message).toMatch(/^c\.yaml:4:1: invalid YAML: /);
    expect(error.details).toMatchObject({ file: "c.yaml", line: 4, column: 1 });
  });

  it("reports a duplicate key as invalid YAML", () => {
    const error = configError(yaml(["ui:", "  display_type: simple", "  display_type: none"]));
    expect(error.message).toBe("c.yaml:3:3: invalid YAML: Map keys must be unique");
  });

  it("reports a wrong type with the dotted path, expected and received", () => {
    const error = configError(
      yaml([
        "agents:",
        "  - id: a",
        "    backend: {type: openai, model: gpt-4o-mini}",
        "  - id: b",
        "    backend:",
        "      type: openai",
        "      model: 42",
      ]),
    );
    expect(error.message).toBe(
      "c.yaml:7:14: agents[1].backend.model: expected string, received number",
    );
    expect(error.details).toEqual({
      file: "c.yaml",
      path: "agents[1].backend.model",
      line: 7,
      column: 14,
    });
  });

  it("lists every problem, one line each, and says which keys are missing", () => {
    const error = configError(
      yaml([
        "agents:",
        "  - id: a",
        "    backend:",
        "      type: openia",
        "      temperature: 3",
        "  - id: b",
        "orchestrator:",
        "  voting_sensitivity: loose",
        "  max_new_answers_per_agent: 1.5",
      ]),
    );
    expect(error.message.split("\n")).toEqual([
      `c.yaml:4:13: agents[0].backend.type: received "openia": did you mean "openai"? (one of ${BACKEND_TYPES.length} values, listed in docs/config.md)`,
      "c.yaml:5:20: agents[0].backend.temperature: expected a number <= 2, received 3",
      "c.yaml:6:5: agents[1].backend: expected object, but the key is missing",
      'c.yaml:8:23: orchestrator.voting_sensitivity: expected one of "lenient" | "balanced" | "strict", received "loose"',
      "c.yaml:9:30: orchestrator.max_new_answers_per_agent: expected integer, received number",
    ]);
  });

  it("requires a model for every backend but scripted", () => {
    const error = configError(yaml(["agents:", "  - id: a", "    backend:", "      type: local"]));
    expect(error.message).toBe(
      "c.yaml:3:5: agents[0].backend.model: expected string (the path of a GGUF file) for backend local, but the key is missing",
    );
  });

  it("rejects duplicate agent ids and a presenter that is not an agent", () => {
    const error = configError(
      yaml([
        "agents:",
        "  - {id: a, backend: {type: scripted}}",
        "  - {id: a, backend: {type: scripted}}",
        "orchestrator:",
        "  presenter_agent: c",
      ]),
    );
    expect(error.message.split("\n")).toEqual([
      'c.yaml:3:10: agents[1].id: duplicate agent id "a" (also agents[0].id); give each agent its own id',
      'c.yaml:5:20: orchestrator.presenter_agent: expected one of the agent ids "a", received "c"',
    ]);
  });

  it("says what to write in an empty file or one that is not a mapping", () => {
    expect(configError("# nothing yet\n").message).toBe(
      "c.yaml: the config is empty: add an `agents:` list (see coord --config @examples/single_agent)",
    );
    expect(configError("- a\n- b\n").message).toBe(
      "c.yaml:1:1: (top level): expected a mapping (agents:, orchestrator:, …), received array",
    );
    expect(configError("agents: []\n").message).toBe(
      "c.yaml:1:9: agents: expected a list with >= 1 item(s), received array",
    );
  });
});

describe("${VAR} expansion", () => {
  const text = yaml([
    "agents:",
    "  - id: a",
    "    backend:",
    "      type: openai",
    "      model: ${MODEL:-gpt-4o-mini}",
    "      base_url: http://${HOST}:${PORT:-8080}/v1",
    "    system_message: costs $${PRICE} and ${MISSING:-}",
  ]);

  it("expands variables, defaults and escapes in string values", () => {
    const { config } = parseConfigText(text, { env: { HOST: "127.0.0.1", MODEL: "" } });
    expect(config.agents[0]?.backend).toMatchObject({
      model: "gpt-4o-mini",
      base_url: "http://127.0.0.1:8080/v1",
    });
    expect(config.agents[0]?.system_message).toBe("costs ${PRICE} and ");
    const overridden = parseConfigText(text, { env: { HOST: "h", PORT: "1", MODEL: "m" } });
    expect(overridden.config.agents[0]?.backend).toMatchObject({
      model: "m",
      base_url: "http://h:1/v1",
    });
  });

  it("names the key and the variable when a variable without default is unset", () => {
    const error = configError(text);
    expect(error.message).toBe(
      "c.yaml:6:17: agents[0].backend.base_url: environment variable HOST is not set: set it in the environment or ~/.config/coord/.env, or write ${HOST:-default}",
    );
    expect(error.details).toMatchObject({
      path: "agents[0].backend.base_url",
      line: 6,
      column: 17,
    });
  });
});

describe("loadConfigFile", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "coord-load-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("returns the absolute path and names the file in messages", async () => {
    const file = join(dir, "team.yaml");
    await writeFile(file, yaml(["agents:", "  - id: a", "    backend: {type: openai, model: 1}"]));
    await expect(loadConfigFile(file, { env: {} })).rejects.toThrow(
      `${file}:3:36: agents[0].backend.model: expected string, received number`,
    );
    await writeFile(file, yaml(["agents:", "  - id: a", "    backend: {type: scripted}"]));
    const loaded = await loadConfigFile(file, { env: {} });
    expect(loaded.path).toBe(file);
    expect(loaded.config.agents[0]?.backend.model).toBe("scripted");
  });

  it("says when the file does not exist", async () => {
    const file = join(dir, "missing.yaml");
    const error: unknown = await loadConfigFile(file, { env: {} }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      message: `${file}: config file not found (built-in examples are named @examples/NAME)`,
      details: { file },
    });
  });
});
