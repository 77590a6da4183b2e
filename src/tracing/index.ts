/**
 * Tracing's public API (docs/tracing.md; spec sections 4.1 `--tracing`, 5.2): whether a command
 * traces (`tracingEnabledBy`), opening the process's session (`openTracing`, which loads
 * OpenTelemetry lazily), and the shapes of a traced run and request. Importing this module loads
 * no OpenTelemetry code.
 */
export { TRACING_ENV, tracingEnabledBy } from "./enabled.js";
export { type OpenTracingOptions, openTracing } from "./open-tracing.js";
export type {
  RequestTrace,
  RunTrace,
  StartRunTraceOptions,
  TracedRequest,
  Tracing,
} from "./types.js";
