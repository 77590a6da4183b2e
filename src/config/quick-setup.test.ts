import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import {
  checkFlagConflicts,
  defaultModelOf,
  inferBackendType,
  parseBackendType,
  quickSetupConfig,
} from "./quick-setup.js";
import { BACKEND_TYPES } from "./schema.js";

describe("quickSetupConfig", () => {
  it("builds a one-agent config with defaults", () => {
    const config = quickSetupConfig({
      backend: "openai",
      model: "gpt-4o-mini",
      systemMessage: "Be brief.",
    });
    expect(config.agents).toEqual([
      {
        id: "agent_a",
        backend: { type: "openai", model: "gpt-4o-mini" },
        system_message: "Be brief.",
      },
    ]);
    expect(config.orchestrator.coordination_mode).toBe("voting");
    expect(config.timeout_settings.orchestrator_timeout_seconds).toBe(1800);
  });

  it("passes a base URL and takes a local GGUF path as the model", () => {
    const config = quickSetupConfig({ backend: "local", model: "./model.gguf" });
    expect(config.agents[0]?.backend).toEqual({ type: "local", model: "./model.gguf" });
    const compatible = quickSetupConfig({
      backend: "chatcompletion",
      model: "m",
      baseUrl: "http://127.0.0.1:8000/v1",
    });
    expect(compatible.agents[0]?.backend.base_url).toBe("http://127.0.0.1:8000/v1");
  });

  it("accepts the spec's seven backends and the other backend types", () => {
    for (const type of [
      "openai",
      "claude",
      "gemini",
      "grok",
      "claude_code",
      "azure_openai",
      "zai",
      ...BACKEND_TYPES,
    ]) {
      expect(quickSetupConfig({ backend: type, model: "m" }).agents[0]?.backend.type).toBe(type);
    }
  });

  it("rejects an unknown backend, listing the accepted ones", () => {
    expect(() => quickSetupConfig({ backend: "openia", model: "m" })).toThrow(
      new ConfigError(`--backend openia: expected one of ${BACKEND_TYPES.join(", ")}`),
    );
  });

  it("a hosted provider without --model gets its first fast model; the others need one", () => {
    const model = (backend: string) => quickSetupConfig({ backend }).agents[0]?.backend.model;
    expect(model("openai")).toBe("gpt-4o-mini");
    expect(model("claude")).toBe("claude-haiku-4-5");
    expect(model("gemini")).toBe("gemini-2.5-flash");
    expect(defaultModelOf("chatcompletion")).toBeUndefined();
    expect(defaultModelOf("azure_openai")).toBeUndefined();
    expect(() => quickSetupConfig({ backend: "chatcompletion" })).toThrow(
      "--backend chatcompletion needs --model NAME and --base-url URL",
    );
    expect(() => quickSetupConfig({ backend: "local" })).toThrow(
      "--backend local needs --model PATH.gguf",
    );
    expect(quickSetupConfig({ backend: "scripted" }).agents[0]?.backend.model).toBe("scripted");
  });

  it("--base-url alone means an OpenAI-compatible server; it still needs the model's name", () => {
    const config = quickSetupConfig({ baseUrl: "http://127.0.0.1:8000/v1", model: "qwen" });
    expect(config.agents[0]?.backend).toEqual({
      type: "chatcompletion",
      model: "qwen",
      base_url: "http://127.0.0.1:8000/v1",
    });
    expect(() => quickSetupConfig({ baseUrl: "http://127.0.0.1:8000/v1" })).toThrow(
      "--backend chatcompletion needs --model NAME",
    );
    expect(checkFlagConflicts({ config: "a.yaml", baseUrl: "http://x/v1" })).toEqual([
      "--base-url is ignored with --config: the config file sets each agent's base_url",
    ]);
  });

  it("infers the backend from the model name when --backend is omitted", () => {
    expect(quickSetupConfig({ model: "gpt-4o-mini" }).agents[0]?.backend.type).toBe("openai");
    expect(inferBackendType("models/Qwen.Q4_K_M.GGUF")).toBe("local");
    expect(inferBackendType("claude-sonnet-4")).toBe("claude");
    expect(inferBackendType("glm-4.5")).toBe("zai");
    expect(inferBackendType("o3-mini")).toBe("openai");
    expect(() => quickSetupConfig({ model: "mystery" })).toThrow(
      /^cannot tell the backend of model "mystery": add --backend TYPE/,
    );
  });
});

describe("parseBackendType", () => {
  it("returns known types", () => {
    expect(parseBackendType("zai")).toBe("zai");
  });
});

describe("checkFlagConflicts", () => {
  it("refuses --model with --config in one clear line", () => {
    expect(() => checkFlagConflicts({ config: "team.yaml", model: "gpt-4o" })).toThrow(
      new ConfigError(
        "--model and --config cannot be used together: use --config alone, or --backend/--model without it",
      ),
    );
  });

  it("warns that --system-message (and --backend) are ignored with --config", () => {
    expect(checkFlagConflicts({ config: "team.yaml", systemMessage: "hi" })).toEqual([
      "--system-message is ignored with --config: set system_message on an agent in the config file instead",
    ]);
    expect(checkFlagConflicts({ config: "team.yaml", backend: "openai" })).toEqual([
      "--backend is ignored with --config: the config file sets each agent's backend",
    ]);
  });

  it("has nothing to say without --config", () => {
    expect(checkFlagConflicts({ model: "m", backend: "openai", systemMessage: "s" })).toEqual([]);
  });
});
