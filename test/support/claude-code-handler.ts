/**
 * Fake-server handlers seen through Claude Code (the `claude_code` backend): Claude Code offers
 * coord's workflow tools as MCP tools named `mcp__coord__<name>` next to its own tools (`Read`,
 * `Bash`, …). {@link workflowView} shows a request as the other backends send it (only coord's
 * tools, plain names), and {@link claudeCodeHandler} runs any handler on that view and prefixes
 * the tool calls it makes. Imports nothing from vitest.
 */
import type { FakeHandler, FakeRequest } from "./fake-openai/fake-reply.js";

/** Prefix Claude Code gives coord's MCP tools. */
export const CLAUDE_CODE_TOOL_PREFIX = "mcp__coord__";

/** The request with only coord's tools, under their plain names (`new_answer`, `vote`). */
export function workflowView(request: FakeRequest): FakeRequest {
  const tools = (Array.isArray(request.body.tools) ? request.body.tools : []) as {
    name?: unknown;
  }[];
  const workflow = tools
    .filter(
      (entry) => typeof entry.name === "string" && entry.name.startsWith(CLAUDE_CODE_TOOL_PREFIX),
    )
    .map((entry) => ({
      ...entry,
      name: (entry.name as string).slice(CLAUDE_CODE_TOOL_PREFIX.length),
    }));
  return { ...request, body: { ...request.body, tools: workflow } };
}

/** `inner` run on {@link workflowView}; its tool calls go back under Claude Code's MCP names. */
export function claudeCodeHandler(inner: FakeHandler): FakeHandler {
  return async (request) => {
    const reply = await inner(workflowView(request));
    return reply.toolCalls
      ? {
          ...reply,
          toolCalls: reply.toolCalls.map((call) => ({
            ...call,
            name: CLAUDE_CODE_TOOL_PREFIX + call.name,
          })),
        }
      : reply;
  };
}
