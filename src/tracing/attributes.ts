/**
 * Span and attribute names (docs/tracing.md "Spans"). Model calls, agent turns and tool
 * executions follow the OpenTelemetry GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ and
 * `gen-ai-agent-spans/`), written as string literals: `@opentelemetry/semantic-conventions` 1.45
 * has them only in its large `incubating` entry point, already marked as moved to the GenAI
 * conventions repository. What those conventions do not cover is under `coord.*`.
 *
 * Free text (questions, answers, reasons, model output, tool arguments and results, error
 * messages) passes through the process's one redactor (`redact`, src/redact.ts); texts the user
 * wrote or the models produced appear only with `tracing.include_content`.
 */
import { descriptorOf } from "../config/index.js";
import { redactSecrets } from "../store/index.js";

/** GenAI semantic-convention attribute names used by coord. */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  /** The current name of the provider attribute… */
  providerName: "gen_ai.provider.name",
  /** …and the earlier one, still read by many backends (Logfire among them). */
  system: "gen_ai.system",
  requestModel: "gen_ai.request.model",
  requestTemperature: "gen_ai.request.temperature",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  responseTimeToFirstChunk: "gen_ai.response.time_to_first_chunk",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  reasoningTokens: "gen_ai.usage.reasoning.output_tokens",
  cacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  outputMessages: "gen_ai.output.messages",
  agentId: "gen_ai.agent.id",
  agentName: "gen_ai.agent.name",
  workflowName: "gen_ai.workflow.name",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
} as const;

/** `gen_ai.operation.name` values. */
export const OPERATION = {
  workflow: "invoke_workflow",
  agent: "invoke_agent",
  chat: "chat",
  tool: "execute_tool",
} as const;

/**
 * Cost of a model call in USD from coord's price table; `operation.cost` is the attribute
 * Logfire shows as a call's cost. Absent when the model has no known price.
 */
export const COST_ATTRIBUTES = ["coord.cost_usd", "operation.cost"] as const;

/**
 * `gen_ai.provider.name` for a coord backend type, from its provider descriptor
 * (`src/config/provider-descriptors/`): the convention's well-known values where one exists
 * (`openai`, `anthropic`, `gcp.gemini`, `x_ai`, `azure.ai.openai`), else the backend type.
 */
export function providerName(backendType: string): string {
  return descriptorOf(backendType)?.tracing.providerName ?? backendType;
}

/** Longest attribute value kept (characters); longer ones are cut by the SDK. */
export const MAX_ATTRIBUTE_LENGTH = 65_536;

/** A JSON value as text, secrets redacted (secret-named keys and credential-like strings). */
export function redactedJson(value: unknown): string {
  return JSON.stringify(redactSecrets(value) ?? null);
}
