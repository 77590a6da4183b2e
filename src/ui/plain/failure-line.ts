/**
 * The one line that says why a run ended without an answer, with advice that fits the cause
 * (docs/real-models.md "Diagnostics"): a budget limit says which key or flag to raise, a model that
 * misbehaved says that more time would not help, only a plain timeout says to raise the timeout.
 * Shown by the CLI (stderr, `--json` `error`) and the server (the error response).
 */
import type { LimitRecord, RunState } from "../../session/index.js";
import { oneLine } from "./trace-lines.js";

/** The config key and flag of each budget limit. */
const LIMIT_SETTING: Record<LimitRecord["limit"], { key: string; flag: string }> = {
  calls: { key: "max_calls", flag: "--max-calls" },
  tokens: { key: "max_tokens", flag: "--max-tokens" },
  cost: { key: "max_cost_usd", flag: "--max-cost" },
};

/**
 * What to do about a run that ended on `state`'s cause, in parentheses-ready words, or undefined
 * when there is nothing better to say than the error itself (a provider failed: its message is
 * the advice).
 * @param options.flags name the command-line flag beside the config key (the CLI; not the server).
 */
export function failureAdvice(
  state: RunState,
  options: { flags: boolean } = { flags: true },
): string | undefined {
  const limit = state.limitsReached.find((reached) => reached.scope === "run");
  if (limit !== undefined) {
    const setting = LIMIT_SETTING[limit.limit];
    return `raise budget.${setting.key} in the config${options.flags ? ` or ${setting.flag}` : ""}`;
  }
  const agentLimit = state.limitsReached.find((reached) => reached.scope === "agent");
  const causes = new Set(state.agents.flatMap((agent) => agent.lastError?.cause ?? []));
  if (agentLimit !== undefined && state.endReason === "failed")
    return `raise budget.per_agent.${LIMIT_SETTING[agentLimit.limit].key} in the config`;
  const misbehaved = causes.has("protocol") && !causes.has("provider");
  if (state.endReason === "timeout") {
    return misbehaved
      ? "the models did not follow coord's protocol (see the degraded reasons): more time would not help; try another model"
      : "raise timeout_settings.orchestrator_timeout_seconds";
  }
  if (misbehaved)
    return "the models did not follow coord's protocol: try another model, see docs/real-models.md";
  if (causes.has("context")) return "the prompts outgrew the models' context windows";
  return undefined;
}

/**
 * `every agent failed — alice: invalid api key; bob: overloaded`, `no answer before the
 * orchestrator timeout (1800 s) (raise timeout_settings.orchestrator_timeout_seconds)`, …: why the
 * run has no answer (each agent's last error when agents failed, else the engine's
 * `run-end.error`) and its {@link failureAdvice}.
 */
export function failureLine(
  state: RunState,
  options: { flags: boolean } = { flags: true },
): string {
  if (state.endReason === "interrupted") return "interrupted; partial work is in the run log";
  const advice = failureAdvice(state, options);
  const suffix = advice === undefined ? "" : ` (${advice})`;
  const errors = state.agents
    .filter((agent) => agent.lastError)
    .map((agent) => `${agent.id}: ${oneLine(agent.lastError!.message, 200)}`);
  const budget = state.limitsReached.some((limit) => limit.scope === "run");
  if (state.endReason === "failed" && errors.length > 0 && !budget)
    return `every agent failed — ${errors.join("; ")}${suffix}`;
  if (state.error !== null) return `${oneLine(state.error, 600)}${suffix}`;
  return `${state.endReason === "timeout" ? "timed out" : "every agent failed"}${suffix}`;
}
