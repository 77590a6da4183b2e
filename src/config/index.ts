// The config layer's public API (docs/architecture.md "Layers"): the schema, loading, discovery,
// built-in examples, .env loading and writing, the providers and their keys, the configs
// `--select` offers, and quick setup.
export * from "./schema.js";
export { CLAUDE_CODE_PERMISSION_MODES } from "./provider-options-schema.js";
export {
  loadConfigFile,
  parseConfigText,
  type ConfigWarning,
  type LoadedConfig,
  type ParsedConfig,
} from "./load.js";
export { expandEnv, type EnvRecord } from "./expand-env.js";
export { mcpServerEntries } from "./check-tool-config.js";
export { formatKeyPath, type KeyPath } from "./key-path.js";
export { defaultAgentId } from "./normalize-config.js";
export {
  discoverConfig,
  globalConfigPath,
  noConfigMessage,
  PROJECT_CONFIG_PATH,
} from "./discovery.js";
export {
  configDescription,
  EXAMPLE_CATEGORIES,
  exampleCategory,
  EXAMPLES_PREFIX,
  examplesDir,
  listExamples,
  OTHER_EXAMPLES_LABEL,
  packageRoot,
  resolveConfigPath,
} from "./examples.js";
export { envFilePath, loadEnvFiles, mergeEnvText, writeEnvFile } from "./env.js";
export {
  type ConfigCategory,
  type ConfigEntry,
  type ConfigSourceKind,
  describeAgents,
  type ListedAgent,
  listConfigSources,
  userConfigsDir,
} from "./config-sources.js";
export {
  type DetectedKey,
  detectProviderKeys,
  type KeyHeader,
  PROVIDER_HOSTS,
  PROVIDER_IDS,
  providerById,
  type ProviderId,
  type ProviderInfo,
  PROVIDERS,
  providersWithKeys,
} from "./providers.js";
export {
  checkFlagConflicts,
  inferBackendType,
  parseBackendType,
  quickSetupConfig,
  type QuickSetupFlags,
} from "./quick-setup.js";
export { configJsonSchema, renderConfigJsonSchema, renderConfigReference } from "./docs.js";
export { BACKEND_TYPES } from "./backend-types.js";
export {
  DEFAULT_VIEWER_URL,
  readSharingSettings,
  SharingConfig,
  type SharingSettings,
  shareUrl,
  VIEWER_URL_ENV,
} from "./sharing.js";
export {
  CHAT_COMPLETIONS_BACKEND_TYPES,
  generationParametersOf,
  unreadBackendKeys,
} from "./backend-key-support.js";
export { GENERATION_PARAMETERS, type GenerationParameter } from "./generation-schema.js";
export {
  CHAT_PROVIDERS,
  chatProviderOf,
  type ChatProviderInfo,
  type ChatProviderSdk,
} from "./chat-providers.js";
export { massgenOnlyTypeMessage } from "./massgen-types.js";
export {
  type BackendImplementation,
  type BackendType,
  descriptorOf,
  KEY_VARIABLES,
  type ProviderHost,
  type SetupOffer,
  type PriceSource,
  type ProviderCapabilities,
  PROVIDER_DESCRIPTORS,
  type ProviderDescriptor,
} from "./provider-descriptors/index.js";
