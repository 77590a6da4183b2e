/**
 * The `scripted` backend's steps (`agents[].backend.steps`, `scripts[].steps`): the test double
 * that plays exactly the model calls it is given (CONTRIBUTING.md rule 6).
 */
import { z } from "zod";
import { MAX_TIMER_MS } from "../clock.js";

/** One scripted tool call: `{name, input}`. */
const ScriptedToolCall = z.object({
  name: z.string().describe("Tool name, e.g. `new_answer` or `vote`."),
  input: z.record(z.string(), z.unknown()).default({}).describe("Tool input object."),
});

/**
 * One step of the `scripted` backend: the response to exactly one model call. Shorthands:
 * `answer: TEXT` is a `new_answer` call, `vote: agentN` (+ `reason`) a `vote` call, `stop`
 * a decomposition `stop` call, `plan` a planning `submit_plan` call; `text` alone is plain text
 * (a final presentation).
 */
export const ScriptedStep = z.object({
  text: z.string().optional().describe("Text streamed before any tool call."),
  reasoning: z.string().optional().describe("Reasoning text streamed first."),
  answer: z.string().optional().describe("Shorthand for a `new_answer` call with this content."),
  vote: z.string().optional().describe("Shorthand for a `vote` call for this anonymous id."),
  reason: z.string().optional().describe("Reason given with `vote`."),
  stop: z
    .object({
      summary: z.string().describe("What the agent did."),
      status: z.enum(["complete", "blocked"]).default("complete").describe("Subtask outcome."),
    })
    .optional()
    .describe("Shorthand for a decomposition `stop` call."),
  plan: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "Shorthand for a planning `submit_plan` call with this input (`tasks`, `requirements`, `design_decisions`; docs/planning.md).",
    ),
  tool_calls: z.array(ScriptedToolCall).optional().describe("Explicit tool calls."),
  error: z
    .object({
      status: z.number().int().optional().describe("HTTP status to report, e.g. 429."),
      message: z.string().describe("Error message."),
      retryable: z
        .boolean()
        .optional()
        .describe("Whether the engine may retry (default: by status)."),
    })
    .optional()
    .describe("Fail this call with a provider error instead of answering."),
  delay_ms: z
    .number()
    .nonnegative()
    .max(MAX_TIMER_MS)
    .optional()
    .describe("Wait this long (ms) before answering."),
  usage: z
    .object({
      input_tokens: z.number().int().nonnegative().optional().describe("Prompt tokens."),
      output_tokens: z.number().int().nonnegative().optional().describe("Completion tokens."),
      reasoning_tokens: z.number().int().nonnegative().optional().describe("Reasoning tokens."),
      cached_input_tokens: z
        .number()
        .int()
        .nonnegative()
        .optional()
        .describe("Prompt tokens served from the provider's cache."),
    })
    .optional()
    .describe("Usage to report (tokens); defaults to a rough count of the prompt and reply."),
  expect_prompt_contains: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("Fail loudly unless the request (system + messages) contains this text."),
});
export type ScriptedStep = z.infer<typeof ScriptedStep>;
