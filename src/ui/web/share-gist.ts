/**
 * Loads a shared session from its gist for the share viewer (docs/web.md "Share viewer"):
 * GitHub's public gist API (`GET https://api.github.com/gists/<id>`, no login for a secret gist
 * whose id is known), the manifest (src/store/share-format.ts), and each attempt's events
 * through the same reader as `coord logs` (schema v1 logs are upgraded). Files GitHub cut in the
 * API response (`truncated: true`, over about 1 MB) are fetched from their `raw_url`.
 */
import { parseEventLog } from "../../events/jsonl.js";
import type { CoordEvent } from "../../events/events.js";
import {
  parseShareManifest,
  SHARE_MANIFEST_FILE,
  ShareFormatError,
  type ShareManifest,
} from "../../store/share-format.js";

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
  events: CoordEvent[];
  /** Text of the attempt's other files, by path in the attempt directory. */
  files: Record<string, string>;
}

/** A loaded shared session. */
export interface SharedSession {
  id: string;
  url: string | null;
  description: string;
  createdAt: string | null;
  manifest: ShareManifest;
  attempts: SharedAttempt[];
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
  const manifestText = await text(SHARE_MANIFEST_FILE);
  if (manifestText === undefined) {
    throw new ShareFormatError(
      `gist ${id} is not a coord session (it has no ${SHARE_MANIFEST_FILE})`,
    );
  }
  const manifest = parseShareManifest(manifestText);
  const attempts: SharedAttempt[] = [];
  for (const attempt of manifest.attempts) {
    const texts: Record<string, string> = {};
    for (const [path, name] of Object.entries(attempt.files)) {
      const content = await text(name);
      if (content !== undefined) texts[path] = content;
    }
    const eventsText = texts["events.jsonl"] ?? "";
    attempts.push({
      key: `turn_${attempt.turn}/attempt_${attempt.attempt}`,
      turn: attempt.turn,
      attempt: attempt.attempt,
      question: attempt.question,
      events: parseEventLog(
        eventsText,
        `turn ${attempt.turn} attempt ${attempt.attempt} events.jsonl`,
      ).events,
      files: texts,
    });
  }
  return {
    id,
    url: gist.html_url ?? null,
    description: gist.description ?? "",
    createdAt: gist.created_at ?? null,
    manifest,
    attempts,
  };
}
