import { describe, expect, it } from "vitest";
import { parseConfigText, providerById } from "../config/index.js";
import {
  agentIds,
  codeTemplate,
  customTemplate,
  decompositionTemplate,
  localTemplate,
  planningTemplate,
  researchTemplate,
  simpleTemplate,
  teamModels,
} from "./templates.js";

const openai = providerById("openai");
const claude = providerById("claude");
const openrouter = providerById("openrouter");

/** Parses a template's YAML as coord would load it; returns the config and the warned paths. */
function load(text: string) {
  const { config, warnings } = parseConfigText(text, { source: "config.yaml", env: {} });
  return { config, unknown: warnings.map((warning) => warning.path) };
}

describe("teamModels", () => {
  it("takes one provider's first models, or goes round the providers", () => {
    const names = (team: ReturnType<typeof teamModels>) =>
      team.map(({ provider, model }) => `${provider.id}:${model}`);
    expect(names(teamModels([openai], openai, { size: 3, tier: "fast" }))).toEqual([
      "openai:gpt-4o-mini",
      "openai:gpt-4.1-mini",
      "openai:gpt-4.1-nano",
    ]);
    expect(names(teamModels([openai, claude], openai, { size: 3, tier: "fast" }))).toEqual([
      "openai:gpt-4o-mini",
      "claude:claude-haiku-4-5",
      "openai:gpt-4.1-mini",
    ]);
    expect(names(teamModels([], openai, { size: 2, tier: "strong" }))).toEqual([
      "openai:gpt-5-mini",
      "openai:gpt-4.1",
    ]);
    // A provider with fewer models than agents repeats them.
    expect(names(teamModels([claude], openai, { size: 3, tier: "strong" }))).toEqual([
      "claude:claude-sonnet-4-5",
      "claude:claude-opus-4-5",
      "claude:claude-sonnet-4-5",
    ]);
  });
});

describe("the templates load as configs", () => {
  const team = teamModels([openai, claude], openai, { size: 3, tier: "fast" });

  it("Simple Q&A: three agents with ids from their models, no unknown keys", () => {
    const text = simpleTemplate(team);
    expect(text).toMatch(/^# Simple Q&A: /);
    expect(text).toContain("# Needs OPENAI_API_KEY, ANTHROPIC_API_KEY in the environment");
    const { config, unknown } = load(text);
    expect(unknown).toEqual([]);
    expect(
      config.agents.map((agent) => [agent.id, agent.backend.type, agent.backend.model]),
    ).toEqual([
      ["gpt_4o_mini", "openai", "gpt-4o-mini"],
      ["claude_haiku_4_5", "claude", "claude-haiku-4-5"],
      ["gpt_4_1_mini", "openai", "gpt-4.1-mini"],
    ]);
    expect(config.orchestrator.max_new_answers_per_agent).toBe(3);
  });

  it("Research: web search on every agent, and a research system message", () => {
    const { config, unknown } = load(researchTemplate(team));
    expect(unknown).toEqual([]);
    expect(config.agents.every((agent) => agent.backend.enable_web_search === true)).toBe(true);
    expect(config.agents[0]!.system_message).toContain("Cite your sources");
  });

  it("Code & Files: a workspace per agent (backend.cwd) and the current directory as a context path", () => {
    const text = codeTemplate(team.slice(0, 2), "write");
    expect(text).toContain("cwd: workspace1 # this agent's private workspace");
    const { config, unknown } = load(text);
    expect(config.orchestrator.context_paths).toEqual([
      { path: ".", permission: "write", protected_paths: [] },
    ]);
    expect(config.agents.map((agent) => (agent.backend as Record<string, unknown>).cwd)).toEqual([
      "workspace1",
      "workspace2",
    ]);
    // `cwd` is the agent's workspace (docs/tools.md): a known key, so no warning.
    expect(unknown).toEqual([]);
    expect(load(codeTemplate(team, "read")).config.orchestrator.context_paths).toEqual([
      { path: ".", permission: "read", protected_paths: [] },
    ]);
  });

  it("Local model: the GGUF path, one thread each, no key", () => {
    const text = localTemplate("/models/tiny model.gguf", 2);
    expect(text).not.toContain("Needs ");
    const { config, unknown } = load(text);
    expect(unknown).toEqual([]);
    expect(
      config.agents.map((agent) => [agent.id, agent.backend.model, agent.backend.threads]),
    ).toEqual([
      ["tiny_model", "/models/tiny model.gguf", 1],
      ["tiny_model_2", "/models/tiny model.gguf", 1],
    ]);
  });

  it("Planning: workspaces, the directory, and how to run --plan", () => {
    const text = planningTemplate(team.slice(0, 2), "read");
    expect(text).toContain('#   coord --plan "Add a /health endpoint to the server"');
    const { config } = load(text);
    expect(config.orchestrator.context_paths).toEqual([
      { path: ".", permission: "read", protected_paths: [] },
    ]);
  });

  it("Decomposition: coordination_mode decomposition with the first agent presenting", () => {
    const { config, unknown } = load(decompositionTemplate(team));
    expect(unknown).toEqual([]);
    expect(config.orchestrator.coordination_mode).toBe("decomposition");
    expect(config.orchestrator.presenter_agent).toBe(config.agents[0]!.id);
  });

  it("Custom team: a base URL for an OpenAI-compatible server, OpenRouter through chatcompletion", () => {
    const { config, unknown } = load(
      customTemplate(
        [
          { type: "chatcompletion", model: "qwen2.5", baseUrl: "http://localhost:8000/v1" },
          { type: openrouter.backend, model: "openai/gpt-4o-mini", baseUrl: openrouter.baseUrl },
        ],
        ["OPENROUTER_API_KEY"],
        ["compatible", "openrouter"],
      ),
    );
    expect(unknown).toEqual([]);
    expect(config.agents.map((agent) => [agent.id, agent.backend.base_url])).toEqual([
      ["compatible_1", "http://localhost:8000/v1"],
      ["openrouter_1", "https://openrouter.ai/api/v1"],
    ]);
  });
});

describe("agentIds", () => {
  it("starts with a letter and is unique", () => {
    expect(
      agentIds([
        { type: "openai", model: "o3" },
        { type: "local", model: "/m/7b.Q4.gguf" },
        { type: "openai", model: "o3" },
      ]),
    ).toEqual(["o3", "agent_7b_q4", "o3_2"]);
  });
});
