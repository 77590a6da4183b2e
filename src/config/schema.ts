/**
 * The one configuration schema (CONTRIBUTING.md rule 8): TypeScript types, the JSON Schema for
 * editors (`z.toJSONSchema(ConfigSchema)`) and the reference table in docs/config.md all come from
 * here.
 *
 * Keys follow MassGen's where they exist (spec section 2, docs/coordination.md "Limits and
 * failures"), so MassGen configs load; keys this schema does not know are reported as warnings with
 * their dotted path by the loader, never as failures.
 */
import { z } from "zod";
import { MAX_TIMER_SECONDS } from "../clock.js";
import { SAFE_NAME, SAFE_NAME_RULE } from "../safe-name.js";
import { BackendConfig } from "./backend-schema.js";
import { SharingConfig } from "./sharing.js";
import { orchestratorToolKeys } from "./tool-schema.js";

export { BackendConfig } from "./backend-schema.js";
export { BACKEND_TYPES, type BackendType } from "./backend-types.js";
export { ScriptedStep } from "./scripted-schema.js";
export { ContextPath, McpServerConfig } from "./tool-schema.js";

/** One agent of the team. */
export const AgentConfig = z.object({
  id: z
    .string()
    .min(1)
    .regex(SAFE_NAME, { message: `expected ${SAFE_NAME_RULE}` })
    .describe(
      "Agent id, unique in the team; the loader fills in `agent_a`, `agent_b`, … if omitted. A safe name (it names the agent's folders): 1-64 letters, digits, `.`, `_` or `-`, starting with a letter or digit.",
    ),
  backend: BackendConfig.describe(
    "The provider and model behind the agent; a key coord does not read is a warning saying why.",
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
  presentation: z
    .enum(["keep_conclusion", "free"])
    .default("keep_conclusion")
    .describe(
      "`keep_conclusion`: a final presentation that changes the winning answer's conclusion (its number, choice or short answer) is replaced by the winning answer, with a warning. `free`: the presenter may synthesise freely (open questions).",
    ),
  tie_break: z
    .enum(["fresh_answers", "revote", "none"])
    .default("fresh_answers")
    .describe(
      "When voting ends with the best conclusion groups tied (docs/selection.md): `fresh_answers`: each agent answers the question once more without seeing the answers, then the team votes again (a tie with a free-form answer: a re-vote); `revote`: each agent votes once more between the tied answers; `none`: no extra round. Once per run, counted in the budget; a tie that remains goes to the earliest answer, reported as a tie.",
    ),
  unanimous: z
    .enum(["vote", "skip_votes"])
    .default("vote")
    .describe(
      "When every live agent's answer reaches the same conclusion (its number, choice or short answer; docs/coordination.md): `vote`: the team votes as usual; `skip_votes`: voting ends there, without the vote round, and the earliest of those answers presents (a warning says so). Voting mode only.",
    ),
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
    .prefault({})
    .describe(
      "Coordination extras: persona generation. MassGen's other coordination keys are warnings saying why.",
    ),
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
      "Hosted providers: longest wait for the response to a request to begin (s); then it is retried like a timeout, and after the retries the call fails. Not applied to a server on this machine or network (LM Studio, Ollama, vLLM…), which may load a model first: `request_timeout_seconds` bounds that wait.",
    ),
  stream_idle_timeout_seconds: seconds()
    .default(120)
    .describe(
      "Every provider over HTTP, local servers included once their response began: longest silence in a response stream (s); then it is retried like a timeout, and after the retries the call fails. Raise it for reasoning models that think silently for long.",
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

/**
 * The most one run (or one agent in it) may spend (`budget`, `budget.per_agent`; `--max-calls`,
 * `--max-tokens`, `--max-cost`). Reaching a run limit ends coordination the way the orchestrator
 * timeout does (the best answer so far is presented); reaching an agent's removes that agent.
 */
function budgetLimits(scope: "run" | "agent") {
  const whole = scope === "run" ? "the whole run" : "one agent";
  return {
    max_calls: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        scope === "run"
          ? "Most model requests the whole run may send, failed ones and retries included (`--max-calls`); then the best answer so far is presented. Default: 40 per agent + 10 (130 for a team of three), so every run is bounded."
          : "Most model requests one agent may send in its rounds, failed ones and retries included; then the agent is removed. Default: 40.",
      ),
    max_tokens: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        `Most tokens (input + output, summed over every request) ${whole} may use${scope === "run" ? " (`--max-tokens`)" : ""}. Default: no limit.`,
      ),
    max_cost_usd: z
      .number()
      .positive()
      .optional()
      .describe(
        `Most USD ${whole} may spend, from the price table (calls whose model has no price count 0)${scope === "run" ? " (`--max-cost`)" : ""}. Default: no limit.`,
      ),
  };
}

export const BudgetConfig = z.object({
  ...budgetLimits("run"),
  per_agent: z
    .object(budgetLimits("agent"))
    .prefault({})
    .describe("The same limits for each agent on its own: an agent over its limit is removed."),
});
export type BudgetConfig = z.infer<typeof BudgetConfig>;

/** The whole YAML configuration file. */
export const ConfigSchema = z.object({
  agents: z.array(AgentConfig).min(1).describe("The team, in order; `agent<N>` is the N-th."),
  orchestrator: OrchestratorConfig.default(OrchestratorConfig.parse({})).describe(
    "How the team coordinates.",
  ),
  timeout_settings: TimeoutSettings.default(TimeoutSettings.parse({})).describe("Time limits."),
  budget: BudgetConfig.prefault({}).describe(
    'The most model requests, tokens and USD one run may spend (docs/real-models.md "The run budget").',
  ),
  ui: UiConfig.default(UiConfig.parse({})).describe("Display and logging."),
  tracing: TracingConfig.default(TracingConfig.parse({})).describe(
    "What traces carry when tracing is on (docs/tracing.md).",
  ),
  session_id: z
    .string()
    .regex(SAFE_NAME, { message: `expected ${SAFE_NAME_RULE}` })
    .optional()
    .describe("Memory session to load (as `--session-id`)."),
  sharing: SharingConfig.default(SharingConfig.parse({})).describe(
    "Sharing runs: `coord export`, `coord shares` (docs/sharing.md).",
  ),
});
/** A validated configuration with every default filled in. */
export type Config = z.infer<typeof ConfigSchema>;
