/**
 * The ai SDK providers' call warnings ("temperature is not supported when thinking is enabled",
 * "combination of function and provider-defined tools", …) as coord warnings. A provider reports
 * them per call in the stream's `stream-start` part, which `ai-sdk-stream.ts` turns into `warning`
 * chunks (and so `warning` events in the run log). Providers never print them themselves (only
 * the SDK's `streamText` did, which coord does not use).
 */

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
