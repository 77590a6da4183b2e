/**
 * Remembers the failures of paid team runs for a short while, so a client that retries a failed
 * request does not run the team again (docs/server.md "Retries").
 *
 * LangChain JS and the AI SDK decide retries from the status code alone (they ignore
 * `x-should-retry: false`): LangChain retries every 5xx up to 6 times over 1–2 minutes, the AI
 * SDK twice over about 6 s. No honest status stops them (a failed run is a server error, and the
 * spec fixes the 501), so the server answers a repeat itself: the same request body, to the same
 * team, within {@link FAILURE_MEMORY_MS} of its failure, gets the same error at once, without a
 * team run.
 */
import { createHash } from "node:crypto";
import { ApiError } from "./api-error.js";

/**
 * The SHA-256 (hex) of a config's JSON, computed once per config object: a server's team (and a
 * routed one, `./team-cache.ts`) is the same object on every request, and a loaded config is never
 * changed in place (a request's overrides make a copy, `./generation-override.ts`).
 */
const configDigests = new WeakMap<object, string>();

function configDigest(config: unknown): string {
  const digest = (value: unknown) =>
    createHash("sha256")
      .update(JSON.stringify(value) ?? "")
      .digest("hex");
  if (typeof config !== "object" || config === null) return digest(config);
  let known = configDigests.get(config);
  if (known === undefined) {
    known = digest(config);
    configDigests.set(config, known);
  }
  return known;
}

/** How long a failed run answers its repeats, ms: longer than LangChain's 6 retries (≤ 126 s). */
export const FAILURE_MEMORY_MS = 180_000;

/** At most this many failures are kept (the oldest go first), so memory stays bounded. */
export const FAILURE_MEMORY_ENTRIES = 256;

/** The error codes of a finished team run that a retry would repeat, at the cost of a new run. */
const REMEMBERED_CODES: ReadonlySet<string> = new Set([
  "run_failed",
  "run_timeout",
  "team_setup_failed",
  "invalid_structured_output",
]);

/** A failure answered again: the error to send and how long ago the run failed (ms). */
export interface RecalledFailure {
  error: ApiError;
  ageMs: number;
}

/** The remembered failures of one server (one per {@link createApp}). */
export interface FailureMemory {
  /**
   * The key of a request: a SHA-256 of the served team's id, its loaded config (a `path:` team
   * whose file was fixed is a new team) and the request body exactly as received (a client's
   * retry sends the same bytes).
   */
  keyOf(teamId: string, config: unknown, body: string): string;
  /**
   * Keeps `error` for `key` when it is the failure of a finished run a retry would repeat (see
   * {@link REMEMBERED_CODES}: not a busy server, a shutdown or a client that went away).
   */
  remember(key: string, error: unknown): void;
  /** The remembered failure of `key` if it is younger than the memory's time; else undefined. */
  recall(key: string): RecalledFailure | undefined;
}

/**
 * Creates an empty memory.
 * @param options.now epoch ms (the app's clock).
 * @param options.ttlMs how long a failure is answered again; default {@link FAILURE_MEMORY_MS}.
 * @param options.maxEntries default {@link FAILURE_MEMORY_ENTRIES}.
 */
export function createFailureMemory(options: {
  now: () => number;
  ttlMs?: number | undefined;
  maxEntries?: number;
}): FailureMemory {
  const ttlMs = options.ttlMs ?? FAILURE_MEMORY_MS;
  const maxEntries = options.maxEntries ?? FAILURE_MEMORY_ENTRIES;
  const failures = new Map<string, { error: ApiError; at: number }>();

  const expire = (at: number) => {
    for (const [key, entry] of failures) {
      if (at - entry.at < ttlMs) break; // insertion order: the rest are younger
      failures.delete(key);
    }
  };

  return {
    keyOf: (teamId, config, body) =>
      createHash("sha256")
        .update(teamId)
        .update("\0")
        .update(configDigest(config))
        .update("\0")
        .update(body)
        .digest("hex"),
    remember(key, error) {
      if (ttlMs <= 0 || !(error instanceof ApiError) || !REMEMBERED_CODES.has(error.code ?? "")) {
        return;
      }
      const at = options.now();
      expire(at);
      failures.delete(key);
      failures.set(key, { error, at });
      while (failures.size > maxEntries) failures.delete(failures.keys().next().value!);
    },
    recall(key) {
      const at = options.now();
      expire(at);
      const entry = failures.get(key);
      if (entry === undefined) return undefined;
      const ageMs = at - entry.at;
      const seconds = Math.max(0, Math.round(ageMs / 1000));
      const error = new ApiError(
        entry.error.status,
        `${entry.error.message} [the same request failed ${seconds} s ago; coord does not run the team again for a repeat within ${Math.round(ttlMs / 1000)} s of a failure]`,
        { type: entry.error.type, param: entry.error.param, code: entry.error.code },
      );
      return { error, ageMs };
    },
  };
}
