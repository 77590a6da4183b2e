/**
 * The routed teams a server has loaded (`path:FILE`, `@examples/NAME`; `./served-team.ts`), so a
 * request naming one again does not read, parse and validate its config again (about 1.5 ms CPU
 * a request). An entry is reused only while what it was loaded from is unchanged — its stamp:
 * the SHA-256 of the file's text for `path:` (the file is still opened, confined and read on every
 * request), the file's identity, size and modification time for an example — so an edited config
 * is picked up by the next request, as without the cache. Clients choose the names, so at most
 * `maxEntries` are kept, the least recently used going first.
 */
/** Default bound on the teams kept. */
export const TEAM_CACHE_ENTRIES = 64;

/**
 * Loaded teams (`T`: `ServedTeam`, generic so this file needs nothing of `./served-team.ts`) by
 * request `model`, each with the stamp of what it was loaded from.
 */
export interface TeamCache<T> {
  /** The team loaded for `key` from what `stamp` names; undefined when none or stale. */
  get(key: string, stamp: string): T | undefined;
  /** Keeps `team` for `key`, replacing an older entry and dropping the least recently used. */
  set(key: string, stamp: string, team: T): void;
  /** Entries kept. */
  readonly size: number;
}

/** Creates an empty cache holding at most `maxEntries` teams (default {@link TEAM_CACHE_ENTRIES}). */
export function createTeamCache<T>(maxEntries = TEAM_CACHE_ENTRIES): TeamCache<T> {
  const entries = new Map<string, { stamp: string; team: T }>();
  return {
    get(key, stamp) {
      const entry = entries.get(key);
      if (entry === undefined || entry.stamp !== stamp) return undefined;
      // Map order is insertion order: re-inserting makes it the most recently used.
      entries.delete(key);
      entries.set(key, entry);
      return entry.team;
    },
    set(key, stamp, team) {
      entries.delete(key);
      entries.set(key, { stamp, team });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * Returns the cached team for `key` when `stamp` still matches, else loads it with `load` and
 * keeps it. Without a cache or a stamp (what it is loaded from could not be stamped) it always
 * loads. A load that throws is not kept.
 */
export async function cachedTeam<T>(
  cache: TeamCache<T> | undefined,
  key: string,
  stamp: string | undefined,
  load: () => Promise<T>,
): Promise<T> {
  const hit = stamp === undefined ? undefined : cache?.get(key, stamp);
  if (hit !== undefined) return hit;
  const team = await load();
  if (stamp !== undefined) cache?.set(key, stamp, team);
  return team;
}
