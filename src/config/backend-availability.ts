/**
 * Which backend types this version of coord can run. The schema accepts every type (configs
 * written for MassGen load); the CLI refuses to run an agent whose backend is not implemented yet.
 */
import { ConfigError } from "../errors.js";
import { BACKEND_TYPES, type BackendType, type Config } from "./schema.js";

/** Backend types the schema accepts but this version cannot run yet (none since `claude_code`). */
export const UNAVAILABLE_BACKENDS: ReadonlySet<BackendType> = new Set<BackendType>([]);

/** Backend types this version can run, in `BACKEND_TYPES` order. */
export const AVAILABLE_BACKENDS: readonly BackendType[] = BACKEND_TYPES.filter(
  (type) => !UNAVAILABLE_BACKENDS.has(type),
);

/**
 * The message for a backend that cannot run yet, e.g. "backend `claude` is not available yet in
 * this version of coord; available: openai, zai, …", or `undefined` when `type` can run.
 */
export function backendUnavailableMessage(
  type: string,
  unavailable: ReadonlySet<string> = UNAVAILABLE_BACKENDS,
): string | undefined {
  if (!unavailable.has(type)) return undefined;
  const available = BACKEND_TYPES.filter((candidate) => !unavailable.has(candidate));
  return `backend \`${type}\` is not available yet in this version of coord; available: ${available.join(", ")}`;
}

/**
 * Checks that every agent's backend can run.
 *
 * @param options.file The config file, named in the message when given.
 * @param options.unavailable the types that cannot run; default {@link UNAVAILABLE_BACKENDS}.
 * @throws ConfigError naming the first agent with an unavailable backend
 *   (`file: agents[1].backend.type: backend \`claude\` is not available yet …`).
 */
export function assertBackendsAvailable(
  config: Config,
  options: { file?: string; unavailable?: ReadonlySet<string> } = {},
): void {
  for (const [index, agent] of config.agents.entries()) {
    const message = backendUnavailableMessage(agent.backend.type, options.unavailable);
    if (message === undefined) continue;
    const path = `agents[${index}].backend.type`;
    const prefix = options.file === undefined ? "" : `${options.file}: `;
    throw new ConfigError(`${prefix}${path}: ${message}`, {
      path,
      ...(options.file === undefined ? {} : { file: options.file }),
    });
  }
}
