/**
 * The factories behind the provider descriptors (`src/config/provider-descriptors/`): one per
 * {@link BackendImplementation}, all of one signature, each importing its backend module only
 * when a config uses it (so `coord --help` stays fast). A descriptor plus its implementation's
 * factory is everything the registry needs to build a type's backend.
 */
import type { Clock } from "../../clock.js";
import type {
  BackendConfig,
  BackendImplementation,
  ProviderDescriptor,
} from "../../config/index.js";
import type { Backend, FileAccess } from "../backend.js";
import type { ProviderDependencies } from "../provider-config.js";

/** What a backend factory may need from the outside world. */
export interface BackendContext {
  /** Environment variables, merged with `~/.config/coord/.env` (the environment wins). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths (a `local` model file) resolve against. */
  cwd: string;
  /**
   * The agent's workspace and what it may read (docs/tools.md), for a backend that runs its own
   * file tools (`claude_code`): they are confined to it.
   */
  files?: FileAccess;
  /** `fetch` for every request of a hosted provider. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Clock used to resolve `Retry-After` dates. Default: `Date.now`. */
  clock?: Pick<Clock, "now">;
}

/** The context of one agent's backend: {@link BackendContext} and the agent's id. */
export interface ProviderContext extends BackendContext {
  /** The agent's id (`scripted` is named after it when it has no `model:`). */
  agentId: string;
}

/**
 * Builds one agent's backend. The one factory signature every implementation has.
 * @throws ConfigError when the backend cannot be set up (missing key or model, unknown file).
 */
export type BackendFactory = (config: BackendConfig, context: ProviderContext) => Promise<Backend>;

/** A descriptor with its factory: what adding a provider gives the registry. */
export interface BackendDescriptor extends ProviderDescriptor {
  create: BackendFactory;
}

/** The hosted providers' optional `fetch` and clock, as their factories take them. */
function dependencies(context: ProviderContext): ProviderDependencies {
  return {
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.clock ? { clock: context.clock } : {}),
  };
}

/** One factory per implementation (the compiler checks that none is missing). */
export const BACKEND_FACTORIES: Readonly<Record<BackendImplementation, BackendFactory>> = {
  openai: async (config, context) =>
    (await import("../openai.js")).createOpenAIBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  claude: async (config, context) =>
    (await import("../claude.js")).createClaudeBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  gemini: async (config, context) =>
    (await import("../gemini.js")).createGeminiBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  grok: async (config, context) =>
    (await import("../grok.js")).createGrokBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  azure_openai: async (config, context) =>
    (await import("../azure-openai.js")).createAzureOpenAIBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  chat_completions: async (config, context) =>
    (await import("../chat-completions.js")).createChatCompletionsBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  hosted_chat: async (config, context) =>
    (await import("../hosted-chat.js")).createHostedChatBackend(
      config,
      { ...context.env },
      dependencies(context),
    ),
  claude_code: async (config, context) =>
    (await import("../claude-code.js")).createClaudeCodeBackend(config, {
      env: { ...context.env },
      cwd: context.cwd,
      ...(context.files ? { files: context.files } : {}),
    }),
  local: async (config, context) =>
    (await import("../local.js")).createLocalBackend(config, { cwd: context.cwd }),
  scripted: async (config, context) =>
    (await import("../scripted.js")).createScriptedBackend({
      steps: config.steps ?? [],
      ...(config.scripts ? { scripts: config.scripts } : {}),
      name: config.model ?? context.agentId,
    }),
};

/** The descriptor of `descriptor.type` with its implementation's factory. */
export function withFactory(descriptor: ProviderDescriptor): BackendDescriptor {
  return { ...descriptor, create: BACKEND_FACTORIES[descriptor.implementation] };
}
