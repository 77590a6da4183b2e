/**
 * Asking before an action that leaves the machine or cannot be undone (`coord export`'s upload,
 * `coord shares delete`): a yes/no question on a terminal (@clack/prompts), `--yes` to skip it,
 * and a refusal naming `--yes` when stdin is not a terminal (a script must say yes explicitly).
 */
import { confirm, isCancel } from "@clack/prompts";
import { ConfigError } from "../errors.js";

/** What to ask. */
export interface ConfirmOptions {
  /** The yes/no question. */
  message: string;
  /** `--yes` was given: do not ask. */
  yes: boolean;
  /** The error when stdin is not a terminal and `--yes` was not given. */
  refusal: string;
}

/**
 * Asks, unless `yes`.
 * @throws ConfigError (exit 1) `<refusal> (stdin is not a terminal)` without a terminal, or
 *   `cancelled: nothing was changed` when the user says no or presses Esc / Ctrl+C.
 */
export async function confirmOrRefuse(
  options: ConfirmOptions,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WritableStream & { isTTY?: boolean } },
): Promise<void> {
  if (options.yes) return;
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    throw new ConfigError(`${options.refusal} (stdin is not a terminal)`);
  }
  const answer = await confirm({
    message: options.message,
    initialValue: false,
    input: io.stdin,
    output: io.stdout as NodeJS.WriteStream,
  });
  if (isCancel(answer) || !answer) throw new ConfigError("cancelled: nothing was changed");
}

/** `980 B`, `24.1 KB (24,613 bytes)`, `3.2 MB (3,210,000 bytes)`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const exact = `${bytes.toLocaleString("en-US")} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB (${exact})`;
  return `${(bytes / 1_000_000).toFixed(1)} MB (${exact})`;
}
