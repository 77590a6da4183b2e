/**
 * The `ai` SDK's call warnings ("temperature is not supported when thinking is enabled",
 * "combination of function and provider-defined tools", …) as coord warnings. The SDK reports
 * them per call in the stream's `start-step` part, which `ai-sdk-stream.ts` turns into `warning`
 * chunks (and so `warning` events in the run log). By default the SDK would also print them
 * itself with `console.info`/`console.warn` — and `console.info` writes to stdout, which carries
 * coord's answer — so {@link silenceSdkWarningLog} turns that printing off.
 */

/**
 * Turns off the SDK's own warning printing (idempotent; an `AI_SDK_LOG_WARNINGS` the embedding
 * program set is left alone).
 */
export function silenceSdkWarningLog(): void {
  const holder = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (holder.AI_SDK_LOG_WARNINGS !== undefined) return;
  holder.AI_SDK_LOG_WARNINGS = false;
}

/** One line for an SDK warning (`unsupported` / `compatibility` / `other`). */
export function describeWarning(warning: unknown): string {
  if (typeof warning !== "object" || warning === null) return String(warning);
  const fields = warning as Record<string, unknown>;
  const details = typeof fields.details === "string" ? ` (${fields.details})` : "";
  if (typeof fields.message === "string") return fields.message;
  if (fields.type === "unsupported" && typeof fields.feature === "string") {
    return `${fields.feature} is not supported and was ignored${details}`;
  }
  if (fields.type === "compatibility" && typeof fields.feature === "string") {
    return `${fields.feature} is used in a compatibility mode${details}`;
  }
  return JSON.stringify(warning);
}
