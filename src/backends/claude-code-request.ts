/**
 * Turning one coord {@link ModelRequest} into what a Claude Code query takes: a single prompt
 * (Claude Code runs its own conversation, so earlier turns — assistant text, workflow calls,
 * tool results and refusals, update messages — are written out in order), the system prompt
 * composed with the agent's `system_prompt` / `append_system_prompt`, and the request's tools
 * (the workflow tools `new_answer`, `vote`, …) as an in-process MCP server.
 */
import type {
  createSdkMcpServer,
  McpSdkServerConfigWithInstance,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import type { ChatMessage, ToolSpec } from "./backend.js";

/** The parts of the Claude Agent SDK that build the MCP server (the package is loaded lazily). */
export interface McpServerSdk {
  createSdkMcpServer: typeof createSdkMcpServer;
  tool: typeof tool;
}

/** Name of the in-process MCP server holding the request's tools. */
export const WORKFLOW_MCP_SERVER = "coord";
/** Prefix Claude Code gives the server's tools: `mcp__coord__new_answer`. */
export const WORKFLOW_TOOL_PREFIX = `mcp__${WORKFLOW_MCP_SERVER}__`;

/**
 * The conversation as one prompt. A lone user message is sent as is; a longer conversation is
 * written out turn by turn in tagged blocks, ending with an instruction to continue from it.
 */
export function renderPrompt(messages: readonly ChatMessage[]): string {
  const first = messages[0];
  if (messages.length === 1 && first?.role === "user") return first.content;
  const parts = messages.map((message) => {
    switch (message.role) {
      case "user":
        return `<user>\n${message.content}\n</user>`;
      case "assistant": {
        const calls = (message.toolCalls ?? []).map(
          (call) => `[you called ${call.toolName} ${JSON.stringify(call.input)}]`,
        );
        return `<assistant>\n${[message.content, ...calls].filter((part) => part !== "").join("\n")}\n</assistant>`;
      }
      case "tool":
        return `<tool_result name="${message.toolName}"${message.isError ? ' error="true"' : ""}>\n${message.content}\n</tool_result>`;
    }
  });
  return [
    "The conversation so far (your earlier turns are marked <assistant>):",
    ...parts,
    "Continue from the last message.",
  ].join("\n\n");
}

/** The `system_prompt` / `append_system_prompt` keys of a `claude_code` backend block. */
export interface SystemPromptOptions {
  /** Replaces Claude Code's own system prompt. */
  systemPrompt?: string | undefined;
  /** Appended to Claude Code's own system prompt. */
  appendSystemPrompt?: string | undefined;
}

/** What the SDK's `systemPrompt` option takes. */
export type SdkSystemPrompt = string | { type: "preset"; preset: "claude_code"; append?: string };

/**
 * The system prompt for one query. coord's own system text (the agent's system message and the
 * coordination rules) is always sent:
 * - `system_prompt` set: it replaces Claude Code's prompt, followed by coord's text;
 * - otherwise Claude Code's own prompt (the `claude_code` preset) with coord's text and then
 *   `append_system_prompt` appended.
 */
export function composeSystemPrompt(system: string, options: SystemPromptOptions): SdkSystemPrompt {
  const join = (...parts: (string | undefined)[]) =>
    parts.filter((part) => part !== undefined && part.trim() !== "").join("\n\n");
  if (options.systemPrompt !== undefined && options.systemPrompt.trim() !== "") {
    return join(options.systemPrompt, system);
  }
  const append = join(system, options.appendSystemPrompt);
  return append === ""
    ? { type: "preset", preset: "claude_code" }
    : { type: "preset", preset: "claude_code", append };
}

/** A call of one of the request's tools, as the MCP handler received it. */
export interface RecordedToolCall {
  /** The plain tool name (`new_answer`, not `mcp__coord__new_answer`). */
  toolName: string;
  input: Record<string, unknown>;
}

/**
 * The request's tools as an in-process MCP server. Each handler records the call through
 * `onCall` and answers that coord received it; the backend then ends the query, and the engine
 * validates the call. The input schemas are the tools' JSON Schemas converted to zod, so the
 * model sees the same schema (enums included) as with any other backend; input that does not
 * match is refused by the MCP layer and the model may correct it within the query.
 *
 * `sdk` is the loaded `@anthropic-ai/claude-agent-sdk`.
 * @throws Error when a tool's input schema is not a JSON Schema object.
 */
export function workflowMcpServer(
  { createSdkMcpServer, tool }: McpServerSdk,
  tools: readonly ToolSpec[],
  onCall: (call: RecordedToolCall) => void,
): McpSdkServerConfigWithInstance {
  return createSdkMcpServer({
    name: WORKFLOW_MCP_SERVER,
    version: "1.0.0",
    // Always in the prompt: never deferred behind Claude Code's tool search.
    alwaysLoad: true,
    tools: tools.map((spec) =>
      tool(spec.name, spec.description, zodShape(spec), (input) => {
        onCall({ toolName: spec.name, input });
        return Promise.resolve({
          content: [
            {
              type: "text" as const,
              text: `coord received your ${spec.name} call; stop here, coord takes it from here.`,
            },
          ],
        });
      }),
    ),
  });
}

function zodShape(spec: ToolSpec): z.ZodRawShape {
  const schema = z.fromJSONSchema(spec.inputSchema);
  if (!(schema instanceof z.ZodObject)) {
    throw new Error(`tool ${spec.name}: its input schema must be a JSON Schema object`);
  }
  return schema.shape;
}

/** The tool names to allow without asking, for the request's tools. */
export function workflowToolNames(tools: readonly ToolSpec[]): string[] {
  return tools.map((spec) => WORKFLOW_TOOL_PREFIX + spec.name);
}
