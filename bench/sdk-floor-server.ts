/**
 * The provider SDK's ceiling in the `coord serve` bench: a plain `node:http` server that, for
 * every incoming POST, makes the same model requests coord made for one team run (the plan file
 * of `floor-server.ts`: `{ "url": model server base, "waves": [[body, …], …] }`) through the
 * provider coord's `chatcompletion` backend uses — `@ai-sdk/openai-compatible`'s chat model,
 * built once, its `doStream` called with each body turned into the SDK's prompt, tools and tool
 * choice, every stream read to its end — and then answers with a small chat completion. No
 * engine, no logs, no validation of its own: the most any server making these calls through this
 * SDK can do, so the gap to `floor-server.ts` is the SDK's, the gap to `coord serve` coord's.
 * `node dist/bench/sdk-floor-server.js plan.json` listens on a free port of 127.0.0.1 and prints
 * `listening on http://127.0.0.1:PORT` on stderr.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
} from "@ai-sdk/provider";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { readFloorPlan, serveFloor } from "./floor-shell.js";

/** The parts of an OpenAI chat-completions request body coord sends. */
interface OpenAIBody {
  model: string;
  messages: {
    role: "system" | "user" | "assistant" | "tool";
    content: string | null;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: {
    function: { name: string; description?: string; parameters: Record<string, unknown> };
  }[];
  tool_choice?: "required" | "auto" | "none";
}

/**
 * One request body as the SDK's call options (the inverse of the provider's own conversion).
 * @throws Error for a message role the plan should not hold.
 */
function callOptions(body: OpenAIBody): LanguageModelV3CallOptions {
  const toolNames = new Map<string, string>();
  const prompt = body.messages.map((message): LanguageModelV3Message => {
    const text = message.content ?? "";
    switch (message.role) {
      case "system":
        return { role: "system", content: text };
      case "user":
        return { role: "user", content: [{ type: "text", text }] };
      case "assistant":
        return {
          role: "assistant",
          content: [
            ...(text === "" ? [] : [{ type: "text" as const, text }]),
            ...(message.tool_calls ?? []).map((call) => {
              toolNames.set(call.id, call.function.name);
              return {
                type: "tool-call" as const,
                toolCallId: call.id,
                toolName: call.function.name,
                input: JSON.parse(call.function.arguments) as unknown,
              };
            }),
          ],
        };
      case "tool": {
        const toolCallId = message.tool_call_id ?? "";
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId,
              toolName: toolNames.get(toolCallId) ?? "",
              output: { type: "text", value: text },
            },
          ],
        };
      }
      default:
        throw new Error(`unexpected message role ${String(message.role)}`);
    }
  });
  const tools = (body.tools ?? []).map((tool): LanguageModelV3FunctionTool => ({
    type: "function",
    name: tool.function.name,
    ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
    inputSchema: tool.function.parameters,
  }));
  return {
    prompt,
    ...(tools.length > 0 ? { tools } : {}),
    ...(body.tool_choice !== undefined ? { toolChoice: { type: body.tool_choice } } : {}),
    includeRawChunks: false,
  };
}

const plan = readFloorPlan();
const provider = createOpenAICompatible({
  name: "chatcompletion",
  baseURL: plan.url,
  apiKey: "sk-bench",
  includeUsage: true,
});
const waves = plan.waves.map((wave) =>
  wave.map((text) => {
    const body = JSON.parse(text) as OpenAIBody;
    return { model: provider.chatModel(body.model), options: callOptions(body) };
  }),
);

async function modelCall(call: (typeof waves)[number][number]): Promise<void> {
  const { stream } = await call.model.doStream(call.options);
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.type === "error") throw new Error(`model call failed: ${String(value.error)}`);
  }
}

serveFloor(waves, modelCall);
