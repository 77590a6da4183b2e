/**
 * The generation parameters of an agent's `backend` block (`top_p`, `top_k`, penalties, `seed`,
 * `stop`, `reasoning_effort`, `extra_body`, `chat_template_kwargs`; docs/config.md) as the ai SDK
 * sends them: call settings where the SDK has one for the provider, else fields merged into the
 * JSON request body by a `fetch` wrapper (as the OpenAI SDK's `extra_body`). `temperature` and
 * `max_tokens` travel with each request (`ModelRequest`). A key the backend type cannot take is
 * warned about at load (`src/config/backend-key-support.ts`) and not sent.
 */
import {
  generationParametersOf,
  CHAT_COMPLETIONS_BACKEND_TYPES,
  type BackendConfig,
  type GenerationParameter,
} from "../config/index.js";

/** The ai SDK call settings (`LanguageModelV3` call options) beside temperature and the output cap. */
export interface GenerationCallSettings {
  topP?: number;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  seed?: number;
  stopSequences?: string[];
}

/** What one backend sends: SDK call settings and fields merged into each request body. */
export interface GenerationSettings {
  callSettings: GenerationCallSettings;
  /** Merged into the top level of every JSON request body (later keys win); empty: nothing. */
  bodyFields: Record<string, unknown>;
}

/**
 * Reads the generation parameters of `config` that its backend type takes.
 *
 * Chat Completions types send `top_k`, `reasoning_effort` and `chat_template_kwargs` as body
 * fields (the OpenAI-compatible SDK has no call setting for them); `extra_body` is merged last
 * into every provider's body.
 *
 * @param env for `azure_openai`, whose `AZURE_OPENAI_API_VERSION` decides its API.
 */
export function generationSettings(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>> = {},
): GenerationSettings {
  const takes = generationParametersOf(config, env);
  const has = (key: GenerationParameter) => takes.has(key) && config[key] !== undefined;
  const chat = (CHAT_COMPLETIONS_BACKEND_TYPES as readonly string[]).includes(config.type);
  const callSettings: GenerationCallSettings = {
    ...(has("top_p") ? { topP: config.top_p! } : {}),
    ...(has("top_k") && !chat ? { topK: config.top_k! } : {}),
    ...(has("frequency_penalty") ? { frequencyPenalty: config.frequency_penalty! } : {}),
    ...(has("presence_penalty") ? { presencePenalty: config.presence_penalty! } : {}),
    ...(has("seed") ? { seed: config.seed! } : {}),
    ...(has("stop") ? { stopSequences: stopList(config.stop!) } : {}),
  };
  // Chat Completions servers also read MassGen's `reasoning: {effort}` as `reasoning_effort`.
  const reasoningEffort = has("reasoning_effort")
    ? config.reasoning_effort
    : config.reasoning?.effort;
  const bodyFields: Record<string, unknown> = {
    ...(has("top_k") && chat ? { top_k: config.top_k } : {}),
    ...(chat && reasoningEffort !== undefined ? { reasoning_effort: reasoningEffort } : {}),
    ...(has("chat_template_kwargs") ? { chat_template_kwargs: config.chat_template_kwargs } : {}),
    ...(has("extra_body") ? config.extra_body : {}),
  };
  return { callSettings, bodyFields };
}

function stopList(stop: string | string[]): string[] {
  return typeof stop === "string" ? [stop] : stop;
}

/**
 * `inner` (default the global `fetch`) with `fields` merged into the top level of every JSON
 * object request body; other requests (no body, not JSON, not an object) go out unchanged.
 * Returns `inner` itself when `fields` is empty.
 */
export function bodyMergingFetch(
  fields: Record<string, unknown>,
  inner?: typeof fetch,
): typeof fetch | undefined {
  if (Object.keys(fields).length === 0) return inner;
  return async (input, init) => {
    const send = inner ?? globalThis.fetch;
    if (typeof init?.body !== "string") return send(input, init);
    let body: unknown;
    try {
      body = JSON.parse(init.body);
    } catch {
      return send(input, init);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return send(input, init);
    return send(input, { ...init, body: JSON.stringify({ ...body, ...fields }) });
  };
}

/**
 * The config's sampling keys as node-llama-cpp options: `top_p`, `top_k`, `seed`, the
 * frequency and presence penalties (its contextual repeat penalty), `stop` (custom stop triggers).
 */
export function localSampling(config: BackendConfig): {
  topP?: number;
  topK?: number;
  seed?: number;
  repeatPenalty?: { frequencyPenalty?: number; presencePenalty?: number };
  customStopTriggers?: string[];
} {
  const penalties = {
    ...(config.frequency_penalty !== undefined
      ? { frequencyPenalty: config.frequency_penalty }
      : {}),
    ...(config.presence_penalty !== undefined ? { presencePenalty: config.presence_penalty } : {}),
  };
  return {
    ...(config.top_p !== undefined ? { topP: config.top_p } : {}),
    ...(config.top_k !== undefined ? { topK: config.top_k } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(Object.keys(penalties).length > 0 ? { repeatPenalty: penalties } : {}),
    ...(config.stop !== undefined
      ? { customStopTriggers: typeof config.stop === "string" ? [config.stop] : config.stop }
      : {}),
  };
}
