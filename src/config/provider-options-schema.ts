/**
 * Provider-specific keys of `agents[].backend` (MassGen's names): reasoning and thinking settings
 * per provider, and the `claude_code` backend's own keys. Which backend reads which is said in
 * each description (the hosted tools' from the provider descriptors' capabilities); the loader warns when a key is set on a backend type that does not read it
 * (`./backend-key-support.ts`).
 */
import { z } from "zod";
import { typeList, typesWith } from "./provider-descriptors/index.js";

/** Reasoning and thinking keys, spread into `agents[].backend`. */
export const providerOptionKeys = {
  reasoning: z
    .object({
      effort: z.string().optional().describe("`low`, `medium`, `high` (model-dependent)."),
      summary: z.string().optional().describe("`auto`, `concise` or `detailed`."),
    })
    .optional()
    .describe(
      "`openai`, `azure_openai` (Responses): reasoning effort and summary; `grok` and `claude` read `effort`.",
    ),
  text: z
    .object({ verbosity: z.string().optional().describe("`low`, `medium` or `high`.") })
    .optional()
    .describe("`openai`: `text.verbosity` of the Responses API."),
  enable_web_search: z
    .boolean()
    .optional()
    .describe(
      `${typeList(typesWith("webSearch"))}: offer the provider's own web search (run by the provider, logged as tool calls; \`grok\` then uses xAI's Responses API).`,
    ),
  enable_code_execution: z
    .boolean()
    .optional()
    .describe(`${typeList(typesWith("codeExecution"))}: offer the provider's own code execution.`),
  enable_x_search: z
    .boolean()
    .optional()
    .describe("`grok`: offer xAI's X (Twitter) search (xAI's Responses API)."),
  enable_code_interpreter: z
    .boolean()
    .optional()
    .describe("`openai`: offer the Code Interpreter tool (an automatic container)."),
  web_search_max_uses: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("`claude`: at most this many web searches per call."),
  thinking_budget_tokens: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "`claude`: extended thinking budget (tokens, at least 1024); same as `thinking: {type: enabled, budget_tokens}`.",
    ),
  thinking: z
    .object({
      type: z.string().optional().describe("`enabled`, `adaptive` or `disabled`."),
      budget_tokens: z.number().int().positive().optional().describe("Budget in tokens."),
    })
    .optional()
    .describe("`claude`: extended thinking, as in Anthropic's API."),
  thinking_budget: z
    .number()
    .int()
    .optional()
    .describe("`gemini`: thinking budget in tokens (`-1` dynamic, `0` off)."),
  include_thoughts: z
    .boolean()
    .optional()
    .describe("`gemini`: stream thought summaries as reasoning (default on for thinking models)."),
  thinking_level: z.string().optional().describe("`gemini` 3: thinking level (`low`, `high`)."),
  reasoning_effort: z
    .string()
    .optional()
    .describe(
      "Reasoning effort (`low`, `medium`, `high`): `grok` (grok-3-mini), `groq`, and the Chat Completions types (`reasoning_effort` in the request).",
    ),
  thinking_config: z
    .object({
      thinking_budget: z.number().int().optional().describe("As `thinking_budget`."),
      include_thoughts: z.boolean().optional().describe("As `include_thoughts`."),
      thinking_level: z.string().optional().describe("As `thinking_level`."),
    })
    .optional()
    .describe("`gemini`: the thinking keys nested, as in Google's API."),
  verbosity: z.string().optional().describe("`openai`: same as `text.verbosity`."),
  effort: z
    .string()
    .optional()
    .describe("`claude`: effort (`low`, `medium`, `high`); same as `reasoning.effort`."),
};

/** Permission modes Claude Code accepts (`permission_mode:`). */
export const CLAUDE_CODE_PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "auto",
] as const;

/** The `claude_code` backend's own keys, spread into `agents[].backend`. */
export const claudeCodeKeys = {
  permission_mode: z
    .enum(CLAUDE_CODE_PERMISSION_MODES)
    .optional()
    .describe("`claude_code`: how Claude Code asks before acting (its `--permission-mode`)."),
  system_prompt: z
    .string()
    .optional()
    .describe("`claude_code`: replaces Claude Code's own system prompt (coord's follows it)."),
  append_system_prompt: z
    .string()
    .optional()
    .describe("`claude_code`: added after Claude Code's own system prompt."),
  max_thinking_tokens: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("`claude_code`: thinking budget (tokens)."),
  max_turns: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("`claude_code`: at most this many of its own turns per model call."),
  disallowed_tools: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .describe(
      "`claude_code`: never these of its tools, e.g. `Bash(rm*)` (a list or a comma-separated string).",
    ),
};
