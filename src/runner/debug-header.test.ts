/**
 * The debug log's header (./debug-header.ts): each agent's key is named by where it comes from —
 * the provider's own variables for every backend type (its descriptor), OpenRouter and the like
 * by their base_url — and never shown.
 */
import { describe, expect, test } from "vitest";
import { parseConfigText } from "../config/index.js";
import { debugHeaderLines } from "./debug-header.js";

function header(yaml: string, env: Record<string, string>): string[] {
  const { config } = parseConfigText(yaml, { env });
  return debugHeaderLines({
    prepared: {
      config,
      configPath: "/p/team.yaml",
      env,
      mode: "voting",
      agentIndexes: config.agents.map((_, index) => index),
    },
    cwd: "/p",
    home: "/h",
    version: "0.0.0",
    argv: [],
  });
}

const TEAM = `agents:
  - id: fast
    backend: { type: groq, model: llama-3.3-70b-versatile }
  - id: coder
    backend: { type: qwen, model: qwen-max }
  - id: router
    backend: { type: chatcompletion, model: x, base_url: https://openrouter.ai/api/v1 }
  - id: here
    backend: { type: chatcompletion, model: x, base_url: http://127.0.0.1:9/v1 }
`;

describe("coord_debug.log header: where each agent's key comes from", () => {
  test("every provider type names its own variables; the key itself never appears", () => {
    const lines = header(TEAM, { GROQ_API_KEY: "gsk-secret-value", DASHSCOPE_API_KEY: "" });
    const agent = (id: string) => lines.find((line) => line.startsWith(`agent ${id}:`)) ?? "";
    expect(agent("fast")).toContain("API key from $GROQ_API_KEY (set)");
    expect(agent("coder")).toContain("API key $QWEN_API_KEY or $DASHSCOPE_API_KEY (not set)");
    expect(agent("router")).toContain("API key $OPENROUTER_API_KEY (not set)");
    expect(agent("here")).toContain("none set in the config (this backend may need none)");
    expect(lines.join("\n")).not.toContain("gsk-secret-value");
  });
});
