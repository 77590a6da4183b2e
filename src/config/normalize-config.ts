/**
 * MassGen compatibility before validation: a single `agent:` becomes `agents: [agent]`, agents
 * without an `id` get `agent_a`, `agent_b`, …, and keys written with no value count as absent.
 */
import { isPlainObject } from "./expand-env.js";
import type { KeyPath } from "./key-path.js";

/** The normalized data and how to map its key paths back to the document as written. */
export interface NormalizedConfig {
  data: Record<string, unknown>;
  /** Maps a path in `data` to the path in the YAML document (`agents[0].x` → `agent.x`). */
  toDocumentPath: (path: KeyPath) => KeyPath;
}

/**
 * Normalizes a parsed (and env-expanded) config object. Does not validate: wrong types are left
 * for the schema to report. The caller rejects `agent:` and `agents:` together beforehand.
 */
export function normalizeConfig(raw: Record<string, unknown>): NormalizedConfig {
  const data = dropNullKeys(raw) as Record<string, unknown>;
  const singleAgent = data.agents === undefined && data.agent !== undefined;
  if (singleAgent) {
    data.agents = [data.agent];
    delete data.agent;
  }
  if (Array.isArray(data.agents)) data.agents = withDefaultIds(data.agents);
  return {
    data,
    toDocumentPath: (path) =>
      singleAgent && path[0] === "agents"
        ? path[1] === 0 || path.length === 1
          ? ["agent", ...path.slice(2)]
          : path
        : path,
  };
}

/** The default id of the agent at `index` (0-based): `agent_a` … `agent_z`, then `agent_27` …. */
export function defaultAgentId(index: number): string {
  return index < 26 ? `agent_${String.fromCharCode(97 + index)}` : `agent_${index + 1}`;
}

function withDefaultIds(agents: unknown[]): unknown[] {
  const taken = new Set(
    agents.flatMap((agent) =>
      isPlainObject(agent) && typeof agent.id === "string" ? [agent.id] : [],
    ),
  );
  let next = 0;
  return agents.map((agent) => {
    if (!isPlainObject(agent) || agent.id !== undefined) return agent;
    let id = defaultAgentId(next++);
    while (taken.has(id)) id = defaultAgentId(next++);
    taken.add(id);
    return { id, ...agent };
  });
}

/** Copies `value`, leaving out object keys whose value is null (`key:` with nothing after it). */
function dropNullKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null)
      .map(([key, item]) => [key, dropNullKeys(item)]),
  );
}
