/**
 * Loads a shared session from its gist for the share viewer (docs/web.md "Share viewer"):
 * GitHub's public gist API (`GET https://api.github.com/gists/<id>`, no login for a secret gist
 * whose id is known), the manifest (`coord_manifest.json`, src/session/share-manifest.ts), and each attempt's events
 * through the same reader as `coord logs` (schema v1 logs are upgraded). Files GitHub cut in the
 * API response (`truncated: true`, over about 1 MB) are fetched from their `raw_url`.
 */
import { type CoordEvent, parseEventLog } from "../../events/index.js";
import {
  MANIFEST_FILE,
  type ManifestSkippedView,
  parseShareManifest,
  RUN_FILE_KEYS,
  RUN_FILE_NAMES,
  ShareFormatError,
  type ShareManifestView,
} from "../../session/index.js";

/** The gist API's base. */
export const GIST_API = "https://api.github.com/gists/";

/** One gist file as the API returns it. */
interface GistFile {
  filename?: string;
  content?: string;
  truncated?: boolean;
  raw_url?: string;
}

/** One attempt, ready to render. */
export interface SharedAttempt {
  key: string;
  turn: number;
  attempt: number;
  question: string;
  /** `run-end.reason`, `incomplete` or `unreadable` (from the manifest). */
  status: string;
  events: CoordEvent[];
  /** Text of the attempt's run files other than events.jsonl, by name (`status.json`, …). */
  files: Record<string, string>;
  /** Shared workspace files, by path in the attempt directory (`ana/snapshots/agent1.1/x.md`). */
  workspace: Record<string, string>;
  /** The attempt's files that were not shared, paths relative to the attempt directory. */
  skipped: ManifestSkippedView[];
}

/** A loaded shared session. */
export interface SharedSession {
  id: string;
  url: string | null;
  description: string;
  createdAt: string | null;
  manifest: ShareManifestView;
  attempts: SharedAttempt[];
  /** `ANALYSIS_REPORT.md` of the log directory, when shared. */
  analysis: string | null;
}

/**
 * Fetches and reads the gist.
 * @throws Error with a message for the page: not found, rate-limited, not a coord session.
 */
export async function loadSharedSession(
  id: string,
  fetcher: typeof fetch = fetch,
): Promise<SharedSession> {
  if (!/^[0-9a-zA-Z]+$/.test(id)) throw new Error(`"${id}" is not a gist id`);
  const response = await fetcher(`${GIST_API}${id}`, {
    headers: { accept: "application/vnd.github+json" },
  });
  if (response.status === 404)
    throw new Error(`gist ${id} not found: the link may be wrong, or the share was deleted`);
  if (response.status === 403 || response.status === 429) {
    throw new Error("GitHub refused the request (rate limit): try again in a few minutes");
  }
  if (!response.ok) throw new Error(`GitHub answered HTTP ${response.status} for gist ${id}`);
  const gist = (await response.json()) as {
    files?: Record<string, GistFile>;
    description?: string;
    created_at?: string;
    html_url?: string;
  };
  const files = gist.files ?? {};
  const text = async (name: string): Promise<string | undefined> => {
    const file = files[name];
    if (!file) return undefined;
    if (file.truncated && file.raw_url) {
      const raw = await fetcher(file.raw_url);
      if (!raw.ok) throw new Error(`cannot fetch ${name} (HTTP ${raw.status})`);
      return raw.text();
    }
    return file.content;
  };
  const manifestText = await text(MANIFEST_FILE);
  if (manifestText === undefined) {
    throw new ShareFormatError(`gist ${id} is not a coord share (it has no ${MANIFEST_FILE})`);
  }
  const manifest = parseShareManifest(manifestText);
  const attempts: SharedAttempt[] = [];
  for (const turn of manifest.turns) {
    for (const attempt of turn.attempts) {
      const where = `turn_${turn.turn}/attempt_${attempt.attempt}/`;
      const texts: Record<string, string> = {};
      for (const key of RUN_FILE_KEYS) {
        const name = attempt.files[key];
        const content = name === null ? undefined : await text(name);
        if (content !== undefined) texts[RUN_FILE_NAMES[key]] = content;
      }
      const workspace: Record<string, string> = {};
      for (const file of manifest.files) {
        if (file.kind !== "workspace" || !file.path.startsWith(where)) continue;
        const content = await text(file.name);
        if (content !== undefined) workspace[file.path.slice(where.length)] = content;
      }
      const eventsText = texts["events.jsonl"] ?? "";
      const others = Object.fromEntries(
        Object.entries(texts).filter(([name]) => name !== "events.jsonl"),
      );
      attempts.push({
        key: `turn_${turn.turn}/attempt_${attempt.attempt}`,
        turn: turn.turn,
        attempt: attempt.attempt,
        question: turn.question,
        status: attempt.status,
        events: parseEventLog(
          eventsText,
          `turn ${turn.turn} attempt ${attempt.attempt} events.jsonl`,
        ).events,
        files: others,
        workspace,
        skipped: manifest.skipped
          .filter((item) => item.path.startsWith(where))
          .map((item) => ({ ...item, path: item.path.slice(where.length) })),
      });
    }
  }
  const analysis = manifest.files.find((file) => file.kind === "analysis");
  return {
    id,
    url: gist.html_url ?? null,
    description: gist.description ?? "",
    createdAt: gist.created_at ?? null,
    manifest,
    attempts,
    analysis: analysis ? ((await text(analysis.name)) ?? null) : null,
  };
}
