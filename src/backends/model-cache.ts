/**
 * Language models shared between backends built from the same settings. Building an ai SDK
 * provider's chat model compiles its zod chunk schemas (about 0.5 ms CPU per model with
 * `@ai-sdk/openai-compatible`), and coord builds every agent's backend again for each run (a
 * `coord serve` request is a run), so a model is built once per distinct set of settings and
 * kept, the {@link MODEL_CACHE_SIZE} most recently used.
 *
 * The key is everything the model is built from: the provider and its settings (base URL, API
 * key, body fields, …) and the injected `fetch` by identity, so two backends share a model only
 * when every request they send is the same. A model is stateless between calls; what a backend
 * learns during its run (the tool-choice fallback, `tool-choice-fallback.ts`) is kept per
 * backend, not per model.
 */
import type { AiSdkModel } from "./ai-sdk-stream.js";

/** Models kept. */
export const MODEL_CACHE_SIZE = 64;

const models = new Map<string, AiSdkModel>();
const fetchIds = new WeakMap<object, number>();
let nextFetchId = 1;

/**
 * The model built by `build` for `settings` and `fetch`, built at most once while it stays among
 * the {@link MODEL_CACHE_SIZE} most recently used.
 *
 * @param settings every value the model is built from (JSON-serialisable: strings, numbers,
 *   booleans, plain objects and arrays), e.g. `{sdk, baseURL, apiKey, bodyFields, model}`.
 * @param fetch the injected `fetch` the model sends with (compared by identity), if any.
 * @param build makes the model from those same settings.
 */
export function sharedLanguageModel(
  settings: Readonly<Record<string, unknown>>,
  fetch: typeof globalThis.fetch | undefined,
  build: () => AiSdkModel,
): AiSdkModel {
  const key = JSON.stringify([fetch === undefined ? 0 : fetchId(fetch), settings]);
  const cached = models.get(key);
  if (cached !== undefined) {
    // Most recently used last: the oldest is first in the map's order.
    models.delete(key);
    models.set(key, cached);
    return cached;
  }
  const model = build();
  models.set(key, model);
  if (models.size > MODEL_CACHE_SIZE) models.delete(models.keys().next().value!);
  return model;
}

function fetchId(fetch: object): number {
  let id = fetchIds.get(fetch);
  if (id === undefined) {
    id = nextFetchId++;
    fetchIds.set(fetch, id);
  }
  return id;
}
