/**
 * Where the `ai` SDK's call warnings go ("temperature is not supported when thinking is
 * enabled", "combination of function and provider-defined tools", …). By default the SDK prints
 * them with `console.info`/`console.warn`, and `console.info` writes to stdout, which carries
 * coord's answer. {@link routeSdkWarnings} sends each distinct warning once to stderr instead, in
 * coord's warning style, unless the embedding program set `globalThis.AI_SDK_LOG_WARNINGS`.
 */

/** The part of the SDK's warning-logger argument coord reads. */
interface SdkWarningBatch {
  warnings: readonly unknown[];
  provider?: string;
  model?: string;
}

type SdkWarningLogger = false | ((options: SdkWarningBatch) => void);

const seen = new Set<string>();

/**
 * Installs coord's logger for the SDK's warnings once (idempotent; an existing
 * `AI_SDK_LOG_WARNINGS` is left alone).
 *
 * @param write where the lines go; default stderr.
 */
export function routeSdkWarnings(write: (line: string) => void = defaultWrite): void {
  const holder = globalThis as { AI_SDK_LOG_WARNINGS?: SdkWarningLogger };
  if (holder.AI_SDK_LOG_WARNINGS !== undefined) return;
  holder.AI_SDK_LOG_WARNINGS = (options) => {
    for (const warning of options.warnings) {
      const line = `coord: warning: ${options.provider ?? "provider"}/${options.model ?? "model"}: ${describeWarning(warning)}`;
      if (seen.has(line)) continue;
      seen.add(line);
      write(line);
    }
  };
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

function defaultWrite(line: string): void {
  process.stderr.write(`${line}\n`);
}
