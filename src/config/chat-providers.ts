/**
 * The hosted providers MassGen names as backend types and coord runs through their Chat
 * Completions APIs: their default base URLs and API key variables (MassGen's, so its configs run
 * unchanged), and which ai SDK package speaks to each (a provider package where a well-kept one
 * exists, else `@ai-sdk/openai-compatible`). A view of the provider descriptors whose
 * implementation is `hosted_chat` (`./provider-descriptors/`). Read by the backends
 * (`src/backends/hosted-chat.ts`), `coord --validate` and the docs.
 */
import type { BackendType } from "./backend-types.js";
import { type ChatProviderSdk, PROVIDER_DESCRIPTORS } from "./provider-descriptors/index.js";

export type { ChatProviderSdk } from "./provider-descriptors/index.js";

/** One hosted Chat Completions provider. */
export interface ChatProviderInfo {
  type: BackendType;
  /** Human name: `Groq`, `Together AI`, … */
  label: string;
  /** Base URL when the config sets no `base_url:` (MassGen's default). */
  baseUrl: string;
  /** Key variables, in the order they are tried; the first is the one messages name. */
  keyVariables: readonly string[];
  sdk: ChatProviderSdk;
}

/** The providers, by backend type, in descriptor order. */
export const CHAT_PROVIDERS: readonly ChatProviderInfo[] = PROVIDER_DESCRIPTORS.flatMap(
  (descriptor): ChatProviderInfo[] =>
    descriptor.implementation === "hosted_chat" &&
    descriptor.defaultBaseUrl !== undefined &&
    descriptor.sdk !== undefined
      ? [
          {
            type: descriptor.type,
            label: descriptor.label,
            baseUrl: descriptor.defaultBaseUrl,
            keyVariables: descriptor.keyVariables,
            sdk: descriptor.sdk,
          },
        ]
      : [],
);

/** The provider of a backend type, or undefined when the type is not one of {@link CHAT_PROVIDERS}. */
export function chatProviderOf(type: string): ChatProviderInfo | undefined {
  return CHAT_PROVIDERS.find((provider) => provider.type === type);
}
