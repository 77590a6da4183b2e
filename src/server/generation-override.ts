/**
 * A request's generation parameters (`temperature`, `max_tokens` / `max_completion_tokens`,
 * `stop`) applied to the served team for one run: each replaces that key in the backend of every
 * agent whose backend takes it (`generationParametersOf`, the same table config loading warns
 * from). The loaded config is not changed: other requests keep the team's own values.
 */
import { type Config, generationParametersOf } from "../config/index.js";
import { invalidRequest } from "./api-error.js";
import type { GenerationRequest } from "./request-options.js";

/** Request field names of each generation key, for messages. */
const REQUEST_FIELD: Record<keyof GenerationRequest, string> = {
  temperature: "temperature",
  max_tokens: "max_tokens",
  stop: "stop",
};

/**
 * The config with the request's generation parameters in every agent that takes them.
 * @param agentIndexes the agents that run (others are left as they are).
 * @param fields the request field of a key when it is not the key's name (`max_completion_tokens`).
 * @throws ApiError 400 `unsupported_parameter` when a parameter is set and no running agent's
 *   backend takes it (a scripted team, `claude_code` for `temperature`): it would change nothing.
 */
export function withGeneration(
  config: Config,
  agentIndexes: readonly number[],
  generation: GenerationRequest,
  env: Readonly<Record<string, string | undefined>>,
  fields: Partial<Record<keyof GenerationRequest, string>> = {},
): Config {
  const keys = (Object.keys(generation) as (keyof GenerationRequest)[]).filter(
    (key) => generation[key] !== undefined,
  );
  if (keys.length === 0) return config;
  const agents = config.agents.map((agent) => agent);
  for (const key of keys) {
    let taken = false;
    for (const index of agentIndexes) {
      const agent = agents[index]!;
      if (!generationParametersOf(agent.backend, env).has(key)) continue;
      agents[index] = { ...agent, backend: { ...agent.backend, [key]: generation[key] } };
      taken = true;
    }
    if (!taken) {
      const field = fields[key] ?? REQUEST_FIELD[key];
      const types = [...new Set(agentIndexes.map((index) => config.agents[index]!.backend.type))];
      throw invalidRequest(
        `${field}: no agent of this team takes it (backends: ${types.join(", ")}), so it would change nothing; the team's config sets its agents' generation parameters — leave ${field} out`,
        field,
        "unsupported_parameter",
      );
    }
  }
  return { ...config, agents };
}
