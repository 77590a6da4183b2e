/**
 * Config messages: every MassGen key says why it is not read, a key written
 * one level off or a mistyped value says what was probably meant, and `reasoning.summary` on a
 * backend that cannot send it is a warning, not a silent drop.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { BACKEND_TYPES } from "./backend-types.js";
import { parseConfigText } from "./load.js";

const yaml = (lines: string[]): string => `${lines.join("\n")}\n`;
const warningsOf = (lines: string[], env: Record<string, string> = {}) =>
  parseConfigText(yaml(lines), { source: "c.yaml", env }).warnings;
const messagesOf = (lines: string[], env: Record<string, string> = {}) =>
  warningsOf(lines, env).map((warning) => warning.message);

/** The message of the ConfigError `lines` fail with. */
function failure(lines: string[]): string {
  try {
    parseConfigText(yaml(lines), { source: "c.yaml", env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const agent = (backend: string[], extra: string[] = []) => [
  "agents:",
  "  - id: a",
  ...extra,
  "    backend:",
  ...backend.map((line) => `      ${line}`),
];

describe("MassGen keys each say why they are not read", () => {
  it("upload_files, betas and orchestrator.dspy carry a reason, not `unknown key`", () => {
    const warnings = warningsOf([
      ...agent(["type: claude", "model: m", "upload_files:", "  - file_search: docs/a.pdf"]),
      "  - id: b",
      "    backend: {type: claude, model: m, betas: [files-api-2025-04-14]}",
      "orchestrator:",
      "  dspy:",
      "    enabled: true",
    ]);
    expect(warnings.map((warning) => [warning.kind, warning.message])).toEqual([
      [
        "unsupported",
        "c.yaml:6:7: agents[0].backend.upload_files: not supported in coord: MassGen's upload of files to the provider (give agents files through orchestrator.context_paths) (ignored)",
      ],
      [
        "not-needed",
        "c.yaml:9:39: agents[1].backend.betas: not needed in coord: its `claude` backend sends the Anthropic beta headers its features need (ignored)",
      ],
      [
        "unsupported",
        "c.yaml:11:3: orchestrator.dspy: not supported in coord: MassGen's DSPy question paraphrasing (to vary the agents, use orchestrator.coordination.persona_generator) (ignored)",
      ],
    ]);
  });

  it("MassGen's coordination settings have a reason wherever its configs write them", () => {
    const warnings = warningsOf([
      ...agent(["type: openai", "model: m", "checkpoint_enabled: true", "websocket_mode: true"]),
      "orchestrator:",
      "  round_evaluator_refine: true",
      "  coordination:",
      "    learning_capture_mode: final_only",
      "    max_midstream_injections_per_round: 2",
    ]);
    expect(warnings.map((warning) => [warning.path, warning.kind])).toEqual([
      ["agents[0].backend.checkpoint_enabled", "unsupported"],
      ["agents[0].backend.websocket_mode", "not-needed"],
      ["orchestrator.round_evaluator_refine", "unsupported"],
      ["orchestrator.coordination.learning_capture_mode", "unsupported"],
      ["orchestrator.coordination.max_midstream_injections_per_round", "unsupported"],
    ]);
    expect(warnings.every((warning) => !warning.message.includes("unknown key"))).toBe(true);
  });

  it("a MassGen key written one level off gets the reason of where MassGen reads it", () => {
    expect(
      messagesOf([...agent(["type: openai", "model: m"]), "orchestrator:", "  broadcast: true"]),
    ).toEqual([
      "c.yaml:7:3: orchestrator.broadcast: not supported in coord: MassGen's planning mode and task planning (ignored)",
    ]);
  });
});

describe("did you mean: a key valid one level down or up", () => {
  it("an agent-level backend key points into backend (list and single-agent forms)", () => {
    expect(
      messagesOf(agent(["type: claude_code"], ["    append_system_prompt: Be brief."])),
    ).toEqual([
      "c.yaml:3:5: unknown key agents[0].append_system_prompt (ignored); did you mean agents[0].backend.append_system_prompt?",
    ]);
    expect(
      messagesOf(["agent:", "  id: a", "  model: gpt-5", "  backend: {type: openai, model: m}"]),
    ).toEqual(["c.yaml:3:3: unknown key agent.model (ignored); did you mean agent.backend.model?"]);
  });

  it("a backend key that belongs to the agent points up", () => {
    expect(
      messagesOf(agent(["type: openai", "model: m", "system_message: You are terse."])),
    ).toEqual([
      "c.yaml:6:7: unknown key agents[0].backend.system_message (ignored); did you mean agents[0].system_message?",
    ]);
  });

  it("a typo at the same level still gets the close key; a key valid nowhere near gets none", () => {
    expect(
      messagesOf(agent(["type: openai", "model: m", "temprature: 0.2", "colour: red"])),
    ).toEqual([
      "c.yaml:6:7: unknown key agents[0].backend.temprature (ignored); did you mean temperature?",
      "c.yaml:7:7: unknown key agents[0].backend.colour (ignored)",
    ]);
  });
});

describe("did you mean: a mistyped value", () => {
  it("names the near miss first, then the few accepted values", () => {
    expect(
      failure([
        ...agent(["type: openai", "model: m"]),
        "orchestrator:",
        "  coordination_mode: votng",
      ]),
    ).toBe(
      'c.yaml:7:22: orchestrator.coordination_mode: received "votng": did you mean "voting"? (expected one of "voting" | "decomposition")',
    );
  });

  it("a long list (the backend types) is left to the docs; a different case is a near miss", () => {
    expect(failure(agent(["type: OpenAI", "model: m"]))).toBe(
      `c.yaml:4:13: agents[0].backend.type: received "OpenAI": did you mean "openai"? (one of ${BACKEND_TYPES.length} values, listed in docs/config.md)`,
    );
  });

  it("with no near miss, every accepted value is listed", () => {
    expect(failure(agent(["type: bedrock", "model: m"]))).toMatch(
      /agents\[0\]\.backend\.type: expected one of "openai" \| "claude" \| .* \| "scripted", received "bedrock"$/,
    );
  });
});

describe("reasoning.summary is never dropped silently", () => {
  it("a Chat Completions backend warns at the summary key, naming the agent and why", () => {
    expect(
      messagesOf(
        agent(["type: groq", "model: m", "reasoning:", "  effort: high", "  summary: auto"]),
      ),
    ).toEqual([
      "c.yaml:8:9: agents[0].backend.reasoning.summary: agent a's backend `groq` cannot send reasoning.summary: Chat Completions has no reasoning summary (reasoning.effort is sent, as reasoning_effort) (ignored)",
    ]);
  });

  it("grok and claude say what they take instead; openai sends it (no warning)", () => {
    const reasoning = ["reasoning: {effort: low, summary: detailed}"];
    expect(messagesOf(agent(["type: grok", "model: m", ...reasoning]))).toEqual([
      expect.stringMatching(/reasoning\.summary: .*`grok` cannot send reasoning\.summary: xAI/),
    ]);
    expect(messagesOf(agent(["type: claude", "model: m", ...reasoning]))).toEqual([
      expect.stringMatching(/`claude` cannot send reasoning\.summary: Anthropic takes the effort/),
    ]);
    expect(messagesOf(agent(["type: openai", "model: m", ...reasoning]))).toEqual([]);
    expect(messagesOf(agent(["type: azure_openai", "model: m", ...reasoning]))).toEqual([]);
  });

  it("azure_openai with a dated api_version (Chat Completions) warns about reasoning and reasoning_effort", () => {
    const lines = agent([
      "type: azure_openai",
      "model: m",
      "reasoning: {effort: low, summary: auto}",
      "reasoning_effort: low",
    ]);
    expect(messagesOf(lines, { AZURE_OPENAI_API_VERSION: "2024-10-21" })).toEqual([
      "c.yaml:6:7: agents[0].backend.reasoning: agent a's backend `azure_openai` does not send reasoning: a dated api_version speaks the deployment's Chat Completions (api_version: v1 sends reasoning) (ignored)",
      "c.yaml:7:7: agents[0].backend.reasoning_effort: agent a's backend `azure_openai` cannot take reasoning_effort: a dated api_version speaks the deployment's Chat Completions (api_version: v1 sends reasoning) (ignored)",
    ]);
    expect(messagesOf(lines)).toEqual([]);
  });
});
