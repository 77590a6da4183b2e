/**
 * The one configuration schema (STYLE.md rule 8): TypeScript types, the JSON Schema for editors
 * (`z.toJSONSchema(ConfigSchema)`) and the reference table in docs/config.md all come from here.
 *
 * Keys follow MassGen's where they exist (spec section 2, COORDINATION.md "Limits and failures"),
 * so MassGen configs load; keys this schema does not know are reported as warnings with their
 * dotted path by the loader, never as failures.
 */
import { z } from "zod";
import { SharingConfig } from "./sharing.js";

import { MAX_TIMER_MS, MAX_TIMER_SECONDS } from "../clock.js";
import { BACKEND_TYPES } from "./backend-types.js";
import { backendToolKeys, orchestratorToolKeys } from "./tool-schema.js";

export { BACKEND_TYPES, type BackendType } from "./backend-types.js";
export { ContextPath, McpServerConfig } from "./tool-schema.js";

/** True for an absolute `http://` or `https://` URL (a `base_url` may name nothing else). */
function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

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

/** `agents[].backend`: the provider and model behind one agent. */
export const BackendConfig = z
  .object({
    type: z.enum(BACKEND_TYPES).describe("Provider backend."),
    model: z
      .string()
      .optional()
      .describe(
        "Model name (required except for `scripted`); for `local`, the path of a GGUF file; for `scripted`, a label.",
      ),
    base_url: z
      .string()
      .refine(isHttpUrl, {
        error: (issue) =>
          `expected an http:// or https:// URL, received ${JSON.stringify(issue.input)}`,
      })
      .optional()
      .describe(
        "API base URL (default: the provider's; `azure_openai`: the resource endpoint, else `AZURE_OPENAI_ENDPOINT`).",
      ),
    api_key: z.string().optional().describe("API key; overrides the environment variable."),
    temperature: z.number().min(0).max(2).optional().describe("Sampling temperature."),
    max_tokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Output cap per model call (tokens)."),
    threads: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("`local`: CPU threads for inference (default 1; keep at most the core count)."),
    context_size: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("`local`: context window in tokens (default 2048)."),
    steps: z.array(ScriptedStep).optional().describe("`scripted`: the steps to play, in order."),
    scripts: z
      .array(
        z.object({
          match: z
            .string()
            .describe("Text the run's first prompt must contain, e.g. its question."),
          steps: z.array(ScriptedStep).describe("The steps to play for that run."),
        }),
      )
      .optional()
      .describe(
        "`scripted`: step lists per run (e.g. per chat turn): the first call picks the one whose `match` occurs latest in its prompt (the current question comes after the history); `steps` when none matches.",
      ),
    api_version: z
      .string()
      .optional()
      .describe(
        "`azure_openai`: API version (default `AZURE_OPENAI_API_VERSION`, else `v1`): `v1` uses the Responses API, a dated version (`2024-10-21`) the deployment's Chat Completions.",
      ),
    reasoning: z
      .object({
        effort: z.string().optional().describe("`low`, `medium`, `high` (model-dependent)."),
        summary: z.string().optional().describe("`auto`, `concise` or `detailed`."),
      })
      .loose()
      .optional()
      .describe(
        "`openai`, `azure_openai` (Responses): reasoning effort and summary; `grok` and `claude` read `effort`.",
      ),
    text: z
      .object({ verbosity: z.string().optional().describe("`low`, `medium` or `high`.") })
      .loose()
      .optional()
      .describe("`openai`: `text.verbosity` of the Responses API."),
    enable_web_search: z
      .boolean()
      .optional()
      .describe(
        "`openai`, `claude`, `gemini`, `grok`: offer the provider's own web search (run by the provider, logged as tool calls; `grok` then uses xAI's Responses API).",
      ),
    enable_code_execution: z
      .boolean()
      .optional()
      .describe("`claude`, `gemini`, `grok`: offer the provider's own code execution."),
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
      .loose()
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
      .describe(
        "`gemini`: stream thought summaries as reasoning (default on for thinking models).",
      ),
    thinking_level: z.string().optional().describe("`gemini` 3: thinking level (`low`, `high`)."),
    reasoning_effort: z
      .string()
      .optional()
      .describe("`grok`: reasoning effort of grok-3-mini (`low`, `high`)."),
    ...backendToolKeys,
  })
  .loose();
export type BackendConfig = z.infer<typeof BackendConfig>;

/** One agent of the team. */
export const AgentConfig = z.object({
  id: z
    .string()
    .min(1)
    .describe(
      "Agent id, unique in the team; the loader fills in `agent_a`, `agent_b`, … if omitted.",
    ),
  backend: BackendConfig.describe(
    "The provider and model behind the agent; other keys are passed to the provider as is.",
  ),
  system_message: z.string().optional().describe("The agent's own system prompt."),
  subtask: z
    .string()
    .optional()
    .describe(
      "Decomposition mode: the subtask this agent owns; agents without one get theirs from one decomposer call.",
    ),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

/** `orchestrator.coordination.persona_generator` (MassGen's keys; `--personas MODE`). */
export const PersonaGeneratorConfig = z.object({
  enabled: z
    .boolean()
    .default(false)
    .describe("Generate one persona per agent with one model call before coordination."),
  diversity_mode: z
    .enum(["perspective", "implementation", "methodology"])
    .default("perspective")
    .describe(
      "What the personas differ in: viewpoints and priorities, kinds of solution, or ways of working.",
    ),
  persist_across_turns: z
    .boolean()
    .default(false)
    .describe(
      "Reuse a session's personas in its later turns (they are saved with each turn) instead of generating new ones.",
    ),
  persona_guidelines: z
    .string()
    .optional()
    .describe("Extra guidelines for the persona call, e.g. the roles or tone you want."),
  backend: BackendConfig.optional().describe(
    "Backend of the persona call; default the first agent's (the call is then its first round).",
  ),
});
export type PersonaGeneratorConfig = z.infer<typeof PersonaGeneratorConfig>;

export const OrchestratorConfig = z.object({
  ...orchestratorToolKeys,
  voting_sensitivity: z
    .enum(["lenient", "balanced", "strict"])
    .default("lenient")
    .describe("How strongly agents are told to improve rather than vote."),
  answer_novelty_requirement: z
    .enum(["lenient", "balanced", "strict"])
    .default("lenient")
    .describe("Refuse new answers too similar to existing ones (Jaccard > 0.70 / 0.50)."),
  max_new_answers_per_agent: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "At this many answers an agent may only vote. Decomposition: answers in a row without news from the others (default 3), then the agent stops.",
    ),
  max_new_answers_global: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("At this many answers in all, every agent may only vote (decomposition: only stop)."),
  skip_final_presentation: z
    .boolean()
    .default(false)
    .describe("Use the winning answer as the final answer, without a presentation round."),
  defer_voting_until_all_answered: z
    .boolean()
    .default(true)
    .describe(
      "Start no voting round before every live agent has answered once (or had an answer refused as identical to another, which it is then asked to vote for).",
    ),
  coordination_mode: z
    .enum(["voting", "decomposition"])
    .default("voting")
    .describe("`voting` (answer/vote/refine) or `decomposition` (one subtask per agent)."),
  presenter_agent: z
    .string()
    .optional()
    .describe(
      "Agent that writes the final answer in quick and decomposition modes; default the first agent.",
    ),
  coordination: z
    .object({
      persona_generator: PersonaGeneratorConfig.default(PersonaGeneratorConfig.parse({})).describe(
        "Personas put before each agent's system message (as `--personas`).",
      ),
    })
    .loose()
    .prefault({})
    .describe("Coordination extras (persona generation, …)."),
});
export type OrchestratorConfig = z.infer<typeof OrchestratorConfig>;

/** A duration in seconds: positive and within Node's timer limit (2147483 s, about 24.8 days). */
const seconds = () => z.number().positive().max(MAX_TIMER_SECONDS);

export const TimeoutSettings = z.object({
  orchestrator_timeout_seconds: seconds()
    .default(1800)
    .describe("Whole coordination (s); on expiry the best answer so far is presented."),
  request_timeout_seconds: seconds()
    .default(300)
    .describe("One model request, retries not included (s)."),
  first_byte_timeout_seconds: seconds()
    .default(120)
    .describe(
      "Hosted providers: longest wait for the response to a request to begin (s); then it is retried like a timeout.",
    ),
  stream_idle_timeout_seconds: seconds()
    .default(120)
    .describe(
      "Hosted providers: longest silence in a response stream (s); then it is retried like a timeout. Raise it for reasoning models that think silently for long.",
    ),
  straggler_timeout_seconds: seconds()
    .default(60)
    .describe(
      "Once every other agent is done and a winner could be chosen, an agent still working is cut after this long (s) and the run goes on without it (event `straggler-cut`).",
    ),
});
export type TimeoutSettings = z.infer<typeof TimeoutSettings>;

export const UiConfig = z.object({
  display_type: z
    .enum(["rich_terminal", "simple", "textual_terminal", "none"])
    .default("rich_terminal")
    .describe("Terminal display; `simple`/`none` print plain lines."),
  logging_enabled: z.boolean().default(true).describe("Write run logs under agent_outputs/."),
});
export type UiConfig = z.infer<typeof UiConfig>;

/** OpenTelemetry tracing of a run (`--tracing`, `COORD_TRACING_ENABLED`; docs/tracing.md). */
export const TracingConfig = z.object({
  include_content: z
    .boolean()
    .default(true)
    .describe(
      "Put the question, answers, vote reasons, model output and tool arguments/results in the spans (secrets are redacted either way).",
    ),
});
export type TracingConfig = z.infer<typeof TracingConfig>;

/** The whole YAML configuration file. */
export const ConfigSchema = z.object({
  agents: z.array(AgentConfig).min(1).describe("The team, in order; `agent<N>` is the N-th."),
  orchestrator: OrchestratorConfig.default(OrchestratorConfig.parse({})).describe(
    "How the team coordinates.",
  ),
  timeout_settings: TimeoutSettings.default(TimeoutSettings.parse({})).describe("Time limits."),
  ui: UiConfig.default(UiConfig.parse({})).describe("Display and logging."),
  tracing: TracingConfig.default(TracingConfig.parse({})).describe(
    "What traces carry when tracing is on (docs/tracing.md).",
  ),
  session_id: z.string().optional().describe("Memory session to load (as `--session-id`)."),
  sharing: SharingConfig.default(SharingConfig.parse({})).describe(
    "Sharing runs: `coord export`, `coord shares` (docs/sharing.md).",
  ),
});
/** A validated configuration with every default filled in. */
export type Config = z.infer<typeof ConfigSchema>;
