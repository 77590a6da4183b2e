/**
 * Every key of a config that coord will not read, each with why (issue "No silent drops"): keys
 * the schema does not declare (MassGen's, with their reason from `./massgen-keys.ts`, or unknown,
 * with a "did you mean" when a declared key is close), and backend keys that the agent's backend
 * type does not read (`./backend-key-support.ts`). The loader warns once per key, with its
 * position, and does not expand `${VAR}` inside them.
 */
import { editDistance } from "../edit-distance.js";
import type { BackendConfig } from "./backend-schema.js";
import { BACKEND_TYPES } from "./backend-types.js";
import { unreadBackendKeys } from "./backend-key-support.js";
import { isPlainObject, type EnvRecord } from "./expand-env.js";
import type { KeyPath } from "./key-path.js";
import { describeUnusedKey, massgenKeyReason, type UnusedKeyKind } from "./massgen-keys.js";
import { ConfigSchema } from "./schema.js";
import { findUnknownKeys } from "./unknown-keys.js";

/** Why a key is not read: the kinds of `./massgen-keys.ts`, or `unread` (its backend type). */
export type UnusedKeyWarningKind = UnusedKeyKind | "unread";

/** One key coord will not read. */
export interface UnusedKey {
  /** Path in the normalized config (`agents[i]…`). */
  path: KeyPath;
  kind: UnusedKeyWarningKind;
  /** The warning text after `file:line:col: `, given the key as the document writes it. */
  describe(key: string): string;
}

/**
 * The keys of a normalized (not yet validated) config that coord will not read, in no particular
 * order (the loader sorts warnings by position).
 */
export function unusedKeys(data: Record<string, unknown>, env: EnvRecord): UnusedKey[] {
  const found: UnusedKey[] = findUnknownKeys(ConfigSchema, data).map(({ path, known }) => {
    const reason = massgenKeyReason(path);
    const name = path.at(-1);
    const suggestion =
      reason === undefined && typeof name === "string" ? closestKey(name, known) : undefined;
    return {
      path,
      kind: reason?.kind ?? "unknown",
      describe: (key) => describeUnusedKey(key, reason, suggestion),
    };
  });
  for (const { backend, path, agent } of backendBlocks(data)) {
    for (const unread of unreadBackendKeys(backend, env)) {
      found.push({
        path: [...path, unread.key],
        kind: "unread",
        describe: (key) =>
          `${key}: ${agent}'s backend \`${backend.type}\` ${unread.text} (ignored)`,
      });
    }
  }
  return found;
}

/** Every backend block with a known type: the agents' and the persona generator's. */
function backendBlocks(
  data: Record<string, unknown>,
): { backend: BackendConfig; path: KeyPath; agent: string }[] {
  const blocks: { backend: BackendConfig; path: KeyPath; agent: string }[] = [];
  const agents = Array.isArray(data.agents) ? (data.agents as unknown[]) : [];
  for (const [index, agent] of agents.entries()) {
    if (!isPlainObject(agent) || !isBackend(agent.backend)) continue;
    const id = typeof agent.id === "string" ? agent.id : `agents[${index}]`;
    blocks.push({
      backend: agent.backend,
      path: ["agents", index, "backend"],
      agent: `agent ${id}`,
    });
  }
  const orchestrator = isPlainObject(data.orchestrator) ? data.orchestrator : {};
  const coordination = isPlainObject(orchestrator.coordination) ? orchestrator.coordination : {};
  const generator = isPlainObject(coordination.persona_generator)
    ? coordination.persona_generator
    : {};
  if (isBackend(generator.backend)) {
    blocks.push({
      backend: generator.backend,
      path: ["orchestrator", "coordination", "persona_generator", "backend"],
      agent: "the persona generator",
    });
  }
  return blocks;
}

function isBackend(value: unknown): value is BackendConfig {
  return (
    isPlainObject(value) &&
    typeof value.type === "string" &&
    (BACKEND_TYPES as readonly string[]).includes(value.type)
  );
}

/** The declared key closest to `name` (a typo: at most a third of its letters off), if any. */
export function closestKey(name: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(name.toLowerCase(), key.toLowerCase());
    if (distance <= Math.max(1, Math.floor(key.length / 3)) && (!best || distance < best.distance))
      best = { key, distance };
  }
  return best?.key;
}
