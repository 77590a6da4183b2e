/**
 * Every backend type coord runs, one descriptor each (`./descriptor.ts` for the shape), in the
 * order `--help`, the schema and the docs list them. Adding a provider is one file here (plus its
 * line below) and, when no existing implementation speaks its API, its backend module and the
 * implementation's factory in `src/backends/providers/index.ts`. `./descriptors.test.ts`
 * checks that the schema, docs, key checks, wizard, host table, registry and pricing all know
 * every descriptor; `./descriptors-scan.test.ts` that no other source file copies their facts.
 */
import type { OfferedDescriptor, ProviderCapabilities, ProviderDescriptor } from "./descriptor.js";
import { openai } from "./openai.js";
import { claude } from "./claude.js";
import { gemini } from "./gemini.js";
import { grok } from "./grok.js";
import { azureOpenai } from "./azure-openai.js";
import { claudeCode } from "./claude-code.js";
import { zai } from "./zai.js";
import { chatcompletion } from "./chatcompletion.js";
import { lmstudio } from "./lmstudio.js";
import { vllm } from "./vllm.js";
import { sglang } from "./sglang.js";
import { ollama } from "./ollama.js";
import { openrouter } from "./openrouter.js";
import { groq } from "./groq.js";
import { cerebras } from "./cerebras.js";
import { together } from "./together.js";
import { fireworks } from "./fireworks.js";
import { moonshot } from "./moonshot.js";
import { nebius } from "./nebius.js";
import { poe } from "./poe.js";
import { qwen } from "./qwen.js";
import { local } from "./local.js";
import { scripted } from "./scripted.js";

export {
  NO_CAPABILITIES,
  type BackendImplementation,
  type ChatProviderSdk,
  type KeyHeader,
  type OfferedDescriptor,
  type PriceSource,
  type ProviderCapabilities,
  type ProviderDescriptor,
  type ProviderHost,
  type SetupOffer,
} from "./descriptor.js";

/** The descriptors, in the order types are listed. */
export const PROVIDER_DESCRIPTORS = [
  openai,
  claude,
  gemini,
  grok,
  azureOpenai,
  claudeCode,
  zai,
  chatcompletion,
  lmstudio,
  vllm,
  sglang,
  ollama,
  openrouter,
  groq,
  cerebras,
  together,
  fireworks,
  moonshot,
  nebius,
  poe,
  qwen,
  local,
  scripted,
] as const;

/** A backend type: `agents[].backend.type`, `--backend`. */
export type BackendType = (typeof PROVIDER_DESCRIPTORS)[number]["type"];

/** The backend types, in {@link PROVIDER_DESCRIPTORS} order (a tuple, as `z.enum` takes it). */
export const BACKEND_TYPES = PROVIDER_DESCRIPTORS.map(
  (descriptor) => descriptor.type,
) as unknown as readonly [BackendType, ...BackendType[]];

/** The descriptor of `type`, or undefined for a string that is no backend type. */
export function descriptorOf(type: string): ProviderDescriptor<BackendType> | undefined {
  return PROVIDER_DESCRIPTORS.find((descriptor) => descriptor.type === type);
}

/** The types whose descriptor says `capability`, in descriptor order. */
export function typesWith(capability: keyof ProviderCapabilities): BackendType[] {
  return PROVIDER_DESCRIPTORS.filter((descriptor) => descriptor.capabilities[capability]).map(
    (descriptor) => descriptor.type,
  );
}

/** Types as the config reference names them: `` `claude`, `gemini`, `grok` ``. */
export function typeList(types: readonly string[]): string {
  return types.map((type) => `\`${type}\``).join(", ");
}

/** A type the setup wizard offers: the descriptors with a `setup` (`./descriptor.ts` `SetupOffer`). */
export type ProviderId = Extract<(typeof PROVIDER_DESCRIPTORS)[number], { setup: object }>["type"];

/** The descriptors the setup wizard offers, in its order (`setup.order`). */
export const OFFERED_DESCRIPTORS: readonly OfferedDescriptor<ProviderId>[] =
  PROVIDER_DESCRIPTORS.filter(
    (descriptor): descriptor is Extract<(typeof PROVIDER_DESCRIPTORS)[number], { setup: object }> =>
      descriptor.setup !== undefined,
  ).sort((a, b) => a.setup.order - b.setup.order);

/** One row of the host table: a domain, the provider it names and that provider's key variable. */
export interface HostEntry {
  domain: string;
  provider: string;
  keyVariable: string;
}

/**
 * Hosted OpenAI-compatible providers known by host (or parent domain): the descriptors' `hosts`,
 * each with its name and API key variable. The `chatcompletion` backend picks the key by
 * `base_url` host from this table (`src/backends/chat-completions.ts`).
 * @throws Error at load when a host has no key variable (a descriptor without keys must name one).
 */
export const PROVIDER_HOSTS: readonly HostEntry[] = PROVIDER_DESCRIPTORS.flatMap((descriptor) =>
  (descriptor.hosts ?? []).map((host): HostEntry => {
    const entry = typeof host === "string" ? { domain: host } : host;
    const keyVariable = entry.keyVariable ?? descriptor.keyVariables[0];
    if (keyVariable === undefined) throw new Error(`host ${entry.domain} has no key variable`);
    return { domain: entry.domain, provider: entry.provider ?? descriptor.type, keyVariable };
  }),
);

/**
 * Every API key variable coord reads, once each, in descriptor order: the descriptors' key
 * variables and their hosts'. (`coord --validate --offline` fills the unset ones.)
 */
export const KEY_VARIABLES: readonly string[] = [
  ...new Set([
    ...PROVIDER_DESCRIPTORS.flatMap((descriptor) => descriptor.keyVariables),
    ...PROVIDER_HOSTS.map((host) => host.keyVariable),
  ]),
];
