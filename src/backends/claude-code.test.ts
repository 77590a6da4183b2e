import { describe, expect, test } from "vitest";
import type { BackendConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { checkResult, claudeCodeSettings, queryOptions, usageOf } from "./claude-code.js";
import { composeSystemPrompt, renderPrompt } from "./claude-code-request.js";
import { BackendError, type ModelRequest } from "./backend.js";

const base: BackendConfig = { type: "claude_code", model: "claude-sonnet-4-5" };
const env: Record<string, string> = { ANTHROPIC_API_KEY: "sk-ant-1", PATH: "/bin" };
const context: { env: Record<string, string>; cwd: string; uid: number } = {
  env,
  cwd: "/work/project",
  uid: 1000,
};

function settings(config: Record<string, unknown>, overrides: Partial<typeof context> = {}) {
  return claudeCodeSettings({ ...base, ...config }, { ...context, ...overrides });
}

describe("claudeCodeSettings", () => {
  test("reads the keys; cwd resolves against coord's working directory", () => {
    const read = settings({
      cwd: "sub/dir",
      allowed_tools: ["Read", "Grep"],
      disallowed_tools: "Bash, WebFetch",
      permission_mode: "acceptEdits",
      system_prompt: "S",
      append_system_prompt: "A",
      max_thinking_tokens: 2048,
      max_turns: 5,
    });
    expect(read).toMatchObject({
      model: "claude-sonnet-4-5",
      cwd: "/work/project/sub/dir",
      allowedTools: ["Read", "Grep"],
      disallowedTools: ["Bash", "WebFetch"],
      permissionMode: "acceptEdits",
      systemPrompt: "S",
      appendSystemPrompt: "A",
      maxThinkingTokens: 2048,
      maxTurns: 5,
    });
    expect(settings({}).cwd).toBe("/work/project");
    expect(settings({ cwd: "/abs" }).cwd).toBe("/abs");
  });

  test("credentials: api_key, ANTHROPIC_API_KEY or a Claude login token, else a ConfigError naming them", () => {
    expect(settings({ api_key: "sk-ant-cfg" }).env.ANTHROPIC_API_KEY).toBe("sk-ant-cfg");
    expect(settings({}).env.ANTHROPIC_API_KEY).toBe("sk-ant-1");
    const oauth = settings({}, { env: { CLAUDE_CODE_OAUTH_TOKEN: "tok" } });
    expect(oauth.env.CLAUDE_CODE_OAUTH_TOKEN).toBe("tok");
    expect(oauth.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(() => settings({}, { env: { PATH: "/bin" } })).toThrow(ConfigError);
    expect(() => settings({}, { env: {} })).toThrow(/ANTHROPIC_API_KEY.*CLAUDE_CODE_OAUTH_TOKEN/);
  });

  test("base URL, and Claude Code's own retries off unless set", () => {
    const read = settings({ base_url: "http://127.0.0.1:9/v1" });
    expect(read.env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:9");
    expect(read.env.CLAUDE_CODE_MAX_RETRIES).toBe("0");
    const kept = settings(
      {},
      { env: { ...env, ANTHROPIC_BASE_URL: "http://h", CLAUDE_CODE_MAX_RETRIES: "2" } },
    );
    expect(kept.env).toMatchObject({
      ANTHROPIC_BASE_URL: "http://h",
      CLAUDE_CODE_MAX_RETRIES: "2",
    });
  });

  test("without a model, Claude Code picks its default: no model option is passed", () => {
    const request: ModelRequest = { system: "", messages: [], tools: [], toolChoice: "auto" };
    const read = settings({ model: undefined });
    expect(read.model).toBeUndefined();
    expect(queryOptions(read, request, {})).not.toHaveProperty("model");
    expect(queryOptions(settings({}), request, {}).model).toBe("claude-sonnet-4-5");
  });

  test("refuses bad keys, and bypassPermissions as root without IS_SANDBOX=1", () => {
    expect(() => settings({ permission_mode: "yolo" })).toThrow(/permission_mode/);
    expect(() => settings({ max_turns: -1 })).toThrow(/max_turns/);
    expect(() => settings({ allowed_tools: [1] })).toThrow(/allowed_tools/);
    expect(() => settings({ permission_mode: "bypassPermissions" }, { uid: 0 })).toThrow(
      /IS_SANDBOX=1/,
    );
    expect(
      settings(
        { permission_mode: "bypassPermissions" },
        { uid: 0, env: { ...env, IS_SANDBOX: "1" } },
      ).permissionMode,
    ).toBe("bypassPermissions");
  });
});

describe("queryOptions", () => {
  const request: ModelRequest = {
    system: "RULES",
    messages: [{ role: "user", content: "q" }],
    tools: [
      { name: "new_answer", description: "d", inputSchema: { type: "object", properties: {} } },
    ],
    toolChoice: "required",
    maxOutputTokens: 500,
  };

  test("allows the workflow tools, maps the permission mode and the output cap", () => {
    const options = queryOptions(
      settings({ allowed_tools: ["Read"], permission_mode: "bypassPermissions" }),
      request,
      {},
    );
    expect(options).toMatchObject({
      model: "claude-sonnet-4-5",
      cwd: "/work/project",
      allowedTools: ["Read", "mcp__coord__new_answer"],
      permissionMode: "bypassPermissions",
      allowDangerouslySkipPermissions: true,
      includePartialMessages: true,
      systemPrompt: { type: "preset", preset: "claude_code", append: "RULES" },
    });
    expect(options.env?.CLAUDE_CODE_MAX_OUTPUT_TOKENS).toBe("500");
  });
});

describe("the request as a Claude Code prompt", () => {
  test("a lone user message is the prompt; a conversation is written out turn by turn", () => {
    expect(renderPrompt([{ role: "user", content: "Hello?" }])).toBe("Hello?");
    const prompt = renderPrompt([
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: "thinking aloud",
        toolCalls: [{ toolCallId: "1", toolName: "vote", input: { agent_id: "agent2" } }],
      },
      {
        role: "tool",
        toolCallId: "1",
        toolName: "vote",
        content: "New answers arrived.",
        isError: true,
      },
      { role: "user", content: "Update: agent3 answered." },
    ]);
    expect(prompt).toContain("<user>\nQ\n</user>");
    expect(prompt).toContain('[you called vote {"agent_id":"agent2"}]');
    expect(prompt).toContain('<tool_result name="vote" error="true">\nNew answers arrived.');
    expect(prompt.indexOf("Update: agent3")).toBeGreaterThan(prompt.indexOf("New answers"));
  });

  test("system prompt: Claude Code's own plus coord's text, or system_prompt replacing it", () => {
    expect(composeSystemPrompt("RULES", {})).toEqual({
      type: "preset",
      preset: "claude_code",
      append: "RULES",
    });
    expect(composeSystemPrompt("RULES", { appendSystemPrompt: "MORE" })).toEqual({
      type: "preset",
      preset: "claude_code",
      append: "RULES\n\nMORE",
    });
    expect(composeSystemPrompt("", {})).toEqual({ type: "preset", preset: "claude_code" });
    expect(composeSystemPrompt("RULES", { systemPrompt: "OWN" })).toBe("OWN\n\nRULES");
  });
});

test("usage: cache reads and writes are added back to input; thinking tokens are reasoning", () => {
  const usage = usageOf({
    usage: {
      input_tokens: 100,
      cache_read_input_tokens: 30,
      cache_creation_input_tokens: 20,
      output_tokens: 40,
      output_tokens_details: { thinking_tokens: 15 },
    },
  } as unknown as Parameters<typeof usageOf>[0]);
  expect(usage).toEqual({
    inputTokens: 150,
    outputTokens: 40,
    reasoningTokens: 15,
    cachedInputTokens: 30,
  });
});

test("a result saying the prompt is too long is a context-length error, never retried", () => {
  const result = {
    type: "result",
    subtype: "success",
    is_error: true,
    result: "Prompt is too long",
    api_error_status: 400,
  } as unknown as Parameters<typeof checkResult>[0];
  const thrown = (() => {
    try {
      checkResult(result);
    } catch (error) {
      return error;
    }
    return undefined;
  })();
  expect(thrown).toBeInstanceOf(BackendError);
  expect(thrown).toMatchObject({ kind: "context-length", retryable: false, status: 400 });
  const other = { ...result, result: "Credit balance is too low" } as typeof result;
  expect(() => checkResult(other)).toThrow(/Credit balance is too low/);
});
