/**
 * The MassGen-format corpus (test/fixtures/massgen/): configs written in MassGen's format for
 * every key family MassGen configs use (backend parameters, MCP servers, workspaces, coordination
 * options, provider types, env placeholders). Each loads with exactly the expected warnings, or
 * fails with the expected one line.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load.js";

const read = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/massgen/${name}`, import.meta.url), "utf8");
const load = (name: string, env: Record<string, string> = {}) =>
  parseConfigText(read(name), { source: name, env, cwd: "/proj" });
const messages = (name: string) => load(name).warnings.map((warning) => warning.message);

describe("MassGen's configs in coord", () => {
  it("backend parameters: a parameter the provider cannot take is a warning naming the agent", () => {
    expect(messages("backend-parameters.yaml")).toEqual([
      "backend-parameters.yaml:9:7: agents[0].backend.top_k: agent fast's backend `groq` cannot take top_k (ignored)",
      "backend-parameters.yaml:30:7: agents[2].backend.frequency_penalty: agent thinker's backend `claude` cannot take frequency_penalty (ignored)",
      "backend-parameters.yaml:31:7: agents[2].backend.reasoning_effort: agent thinker's backend `claude` cannot take reasoning_effort: use effort (ignored)",
      "backend-parameters.yaml:38:7: agents[3].backend.seed: agent responder's backend `openai` cannot take seed (ignored)",
    ]);
    const { config } = load("backend-parameters.yaml");
    expect(config.agents[0]?.backend).toMatchObject({
      top_p: 0.9,
      frequency_penalty: 0.3,
      presence_penalty: 0.1,
      seed: 42,
      stop: ["###"],
    });
    expect(config.agents[1]?.backend).toMatchObject({
      chat_template_kwargs: { enable_thinking: false },
      extra_body: { repetition_penalty: 1.05 },
    });
  });

  it("tools and env: Docker and Python tools are warned about; ${VAR} is left alone where coord does not read it", () => {
    const { config, warnings } = load("tools-and-env.yaml");
    expect(warnings.map((warning) => [warning.kind, warning.message])).toEqual([
      [
        "unsupported",
        "tools-and-env.yaml:9:7: agents[0].backend.command_line_docker_image: not supported in coord: MassGen's Docker execution (commands run locally, in the agent's workspace) (ignored)",
      ],
      [
        "unsupported",
        "tools-and-env.yaml:10:7: agents[0].backend.command_line_docker_network_mode: not supported in coord: MassGen's Docker execution (commands run locally, in the agent's workspace) (ignored)",
      ],
      [
        "unsupported",
        "tools-and-env.yaml:11:7: agents[0].backend.custom_tools: not supported in coord: MassGen's Python custom tools (offer tools through mcp_servers) (ignored)",
      ],
    ]);
    const backend = config.agents[0]!.backend;
    const servers = backend.mcp_servers as { env: object; args: string[] }[];
    // MassGen's ${cwd} is the working directory where coord reads the value …
    expect(backend.cwd).toBe("/proj/workspace1");
    expect(config.orchestrator.context_paths).toEqual([
      { path: "/proj/docs", permission: "read", protected_paths: [] },
    ]);
    // … and MCP servers expand theirs when each starts (unset WEATHER_API_KEY is no error here).
    expect(servers[0]).toMatchObject({
      env: { WEATHER_API_KEY: "${WEATHER_API_KEY}" },
    });
    expect(servers[1]).toMatchObject({
      args: ["-y", "@modelcontextprotocol/server-filesystem", "${cwd}"],
    });
  });

  it("an unset ${VAR} in a key coord reads is still an error naming the key", () => {
    const text = read("provider-types.yaml").replace(
      "model: qwen-max",
      'model: qwen-max, api_key: "${QWEN_KEY}"',
    );
    expect(() => parseConfigText(text, { source: "p.yaml", env: {} })).toThrow(
      /p\.yaml:\d+:\d+: agents\[8\]\.backend\.api_key: environment variable QWEN_KEY is not set/,
    );
  });

  it("coordination options: MassGen's are warnings saying why; typos are unknown keys", () => {
    expect(messages("coordination.yaml")).toEqual([
      "coordination.yaml:11:5: orchestrator.coordination.enable_planning_mode: not supported in coord: MassGen's planning mode and task planning (ignored)",
      "coordination.yaml:12:5: orchestrator.coordination.max_orchestration_restarts: not supported in coord: MassGen's orchestration restarts (the winner reviewing and restarting the run) (ignored)",
      "coordination.yaml:13:5: orchestrator.coordination.use_skills: not supported in coord: MassGen's skills (ignored)",
      "coordination.yaml:17:3: unknown key orchestrator.timeout_settings_typo (ignored)",
    ]);
    expect(
      load("coordination.yaml").config.orchestrator.coordination.persona_generator,
    ).toMatchObject({
      enabled: true,
      diversity_mode: "methodology",
    });
  });

  it("provider types: MassGen's hosted types load, and claude_code needs no model", () => {
    const { config, warnings } = load("provider-types.yaml");
    expect(warnings).toEqual([]);
    expect(config.agents.map((agent) => agent.backend.type)).toEqual([
      "openrouter",
      "groq",
      "cerebras",
      "together",
      "fireworks",
      "moonshot",
      "nebius",
      "poe",
      "qwen",
      "claude_code",
    ]);
    expect(config.agents[9]?.backend.model).toBeUndefined();
  });

  it("type: ag2 is refused with one line saying what it is and what to use", () => {
    expect(() => load("ag2.yaml")).toThrow(
      /^ag2\.yaml:5:13: agents\[0\]\.backend\.type: `ag2` is AG2 \(AutoGen\), a Python framework coord cannot run: give the agent a provider type/,
    );
  });
});
