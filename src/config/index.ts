// The config layer's public API (ARCHITECTURE.md "config/"): the schema, loading, discovery,
// built-in examples, .env loading and quick setup.
export * from "./schema.js";
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
  EXAMPLES_PREFIX,
  examplesDir,
  listExamples,
  packageRoot,
  resolveConfigPath,
} from "./examples.js";
export { envFilePath, loadEnvFiles } from "./env.js";
export {
  checkFlagConflicts,
  inferBackendType,
  parseBackendType,
  quickSetupConfig,
  type QuickSetupFlags,
} from "./quick-setup.js";
export {
  assertBackendsAvailable,
  AVAILABLE_BACKENDS,
  backendUnavailableMessage,
  UNAVAILABLE_BACKENDS,
} from "./backend-availability.js";
export { configJsonSchema, renderConfigJsonSchema, renderConfigReference } from "./docs.js";
export { BACKEND_TYPES } from "./backend-types.js";
