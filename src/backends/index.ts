/**
 * The backends layer's public API (docs/architecture.md "Layers"): the one Backend interface, its
 * error, and the scripted backend. Provider backends and the registry are loaded lazily with
 * `import("./registry.js")`.
 */
export {
  type Backend,
  type BackendChunk,
  BackendError,
  type BackendErrorKind,
  type ChatMessage,
  emptyUsage,
  type FileAccess,
  isContextLengthError,
  type ModelRequest,
  type ToolCall,
  type ToolSpec,
  type Usage,
} from "./backend.js";
export { createScriptedBackend, type ScriptedBackend, type ScriptedStep } from "./scripted.js";
export { PRICE_PACKAGE, priceDataLabel, priceDataVersion } from "./price-data.js";
