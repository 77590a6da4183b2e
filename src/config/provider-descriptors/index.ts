/**
 * Every backend type coord runs, one descriptor each (`./descriptor.ts` for the shape), in the
 * order `--help`, the schema and the docs list them. Adding a provider is one file here (plus its
 * line below) and, when no existing implementation speaks its API, its backend module and the
 * implementation's factory in `src/backends/providers/index.ts`. `./descriptors.test.ts`
 * checks that the schema, docs, key checks, registry and pricing all know every descriptor.
 */
import type { ProviderDescriptor } from "./descriptor.js";
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
  type PriceSource,
  type ProviderCapabilities,
  type ProviderDescriptor,
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
