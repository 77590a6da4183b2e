/**
 * Every key of a config that coord will not read, each with why (nothing is dropped silently): keys
 * the schema does not declare (MassGen's, with their reason from `./massgen-keys.ts`, or unknown,
 * with a "did you mean" when a declared key is close or the key is declared one level down or
 * up), and backend keys (or, for `reasoning.summary`, a part of one) that the agent's backend
 * type does not read (`./backend-key-support.ts`). The loader warns once per key, with its
 * position, and does not expand `${VAR}` inside them.
 */
import type { BackendConfig } from "./backend-schema.js";
import { BACKEND_TYPES } from "./backend-types.js";
import { unreadBackendKeys } from "./backend-key-support.js";
import { nearMiss } from "./describe-issue.js";
import { isPlainObject, type EnvRecord } from "./expand-env.js";
import type { KeyPath } from "./key-path.js";
import {
  describeUnusedKey,
  massgenKeyReason,
  type UnusedKeyKind,
  type UnusedKeyReason,
} from "./massgen-keys.js";
import { ConfigSchema } from "./schema.js";
import { findUnknownKeys, type UnknownKey } from "./unknown-keys.js";

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
  const found: UnusedKey[] = findUnknownKeys(ConfigSchema, data).map((unknown) => {
    const { path } = unknown;
    const name = path.at(-1);
    const place = typeof name === "string" ? placeFor(unknown, name) : undefined;
    const reason = massgenKeyReason(path) ?? place?.reason;
    return {
      path,
      kind: reason?.kind ?? "unknown",
      describe: (key) =>
        describeUnusedKey(
          key,
          reason,
          typeof name === "string" && place !== undefined && reason === undefined
            ? suggestionText(key, name, place)
            : undefined,
        ),
    };
  });
  for (const { backend, path, agent } of backendBlocks(data)) {
    for (const unread of unreadBackendKeys(backend, env)) {
      found.push({
        path: [...path, ...unread.path],
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

/**
 * Where an unknown key `name` probably belongs: a key coord reads one level down
 * (`agents[0].append_system_prompt` → `backend.append_system_prompt`) or up
 * (`agents[0].backend.system_message` → `agents[0].system_message`), else a close declared key
 * at its level (a typo); else the reason of a MassGen key written one level off.
 */
type Place =
  | { move: "down"; into: string; reason?: undefined }
  | { move: "up"; parent: string; reason?: undefined }
  | { move: "typo"; key: string; reason?: undefined }
  | { move: "none"; reason: UnusedKeyReason };

function placeFor(unknown: UnknownKey, name: string): Place | undefined {
  const { path, known, below, above } = unknown;
  const into = below.find((member) => member.known.includes(name));
  if (into !== undefined) return { move: "down", into: into.key };
  const parent = path.at(-2);
  if (typeof parent === "string" && above?.includes(name)) return { move: "up", parent };
  const typo = closestKey(name, known);
  if (typo !== undefined) return { move: "typo", key: typo };
  const parentPath = path.slice(0, -1);
  const nearby = [
    ...below.map((member) => massgenKeyReason([...parentPath, member.key, name])),
    typeof parent === "string" ? massgenKeyReason([...path.slice(0, -2), name]) : undefined,
  ].find((reason) => reason !== undefined);
  return nearby === undefined ? undefined : { move: "none", reason: nearby };
}

/**
 * The "did you mean" key as the document writes it, from `key` (the unknown key's path as
 * written, ending in `name`): `agents[0].append_system_prompt` → `agents[0].backend.append_system_prompt`.
 */
function suggestionText(key: string, name: string, place: Place): string | undefined {
  if (place.move === "typo") return place.key;
  if (!key.endsWith(name)) return undefined;
  const before = key.slice(0, key.length - name.length);
  if (place.move === "down") return `${before}${place.into}.${name}`;
  if (place.move !== "up") return undefined;
  if (before === `${place.parent}.`) return name;
  return before.endsWith(`.${place.parent}.`)
    ? `${before.slice(0, before.length - place.parent.length - 1)}${name}`
    : undefined;
}

/** The declared key closest to `name` (a typo: at most a third of its letters off), if any. */
export function closestKey(name: string, known: readonly string[]): string | undefined {
  return nearMiss(name, known);
}
