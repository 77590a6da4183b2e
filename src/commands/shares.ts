/**
 * `coord shares list [--limit N] [--json]` and `coord shares delete <gist_id> [--yes]` (spec
 * §4.2; docs/sharing.md "coord shares list|delete"): the user's shared runs — the gists whose
 * description starts with `coord session: ` — listed with id, date, question and share URL; one
 * deleted after a check that it holds coord_manifest.json and a confirmation.
 *
 * Exit codes: 0; 1 gh missing or not logged in, not a coord share, not confirmed (ConfigError);
 * 2 gh failed (ExecutionError).
 */
import { loadEnvFiles, readSharingSettings, shareUrl } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { MANIFEST_FILE, SHARE_DESCRIPTION_PREFIX } from "../logs/index.js";
import { renderTable } from "../ui/plain/index.js";
import { confirmOrRefuse } from "./confirm.js";
import type { ShareIO } from "./export.js";
import {
  deleteGist,
  gistFileNames,
  gistIdOf,
  type GhRunner,
  ghRunner,
  listGists,
  requireGhLogin,
} from "./gh.js";

/** How many of the user's gists `shares list` looks through by default. */
export const DEFAULT_SHARES_LIMIT = 100;

/** One share of `coord shares list --json`. */
export interface ShareListEntry {
  id: string;
  /** RFC 3339, as gh gives it (the gist's last update). */
  date: string;
  question: string;
  /** `{viewer_url}/?gist=<id>`. */
  url: string;
  gist_url: string;
}

/**
 * Lists the shares among the user's `limit` most recent gists, newest first.
 * @returns 0.
 */
export async function listSharesCommand(
  flags: { limit: number; json: boolean },
  io: ShareIO,
): Promise<number> {
  const gh = await loggedInGh(io);
  const env = await loadEnvFiles({ home: io.home, env: io.env });
  const { viewerUrl } = await readSharingSettings({ cwd: io.cwd, home: io.home, env });
  const shares: ShareListEntry[] = (await listGists(gh, flags.limit))
    .filter((gist) => gist.description.startsWith(SHARE_DESCRIPTION_PREFIX))
    .map((gist) => ({
      id: gist.id,
      date: gist.updated,
      question: gist.description.slice(SHARE_DESCRIPTION_PREFIX.length),
      url: shareUrl(viewerUrl, gist.id),
      gist_url: `https://gist.github.com/${gist.id}`,
    }));
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(shares, null, 2)}\n`);
    return 0;
  }
  if (shares.length === 0) {
    io.stdout.write(
      `No shared runs among your ${flags.limit} most recent gists (coord export shares one; --limit N looks further).\n`,
    );
    return 0;
  }
  const rows = shares.map((share) => [share.id, shortDate(share.date), share.question, share.url]);
  io.stdout.write(
    `${renderTable([{ header: "ID" }, { header: "DATE" }, { header: "QUESTION" }, { header: "URL" }], rows)}\n`,
  );
  return 0;
}

/**
 * Deletes one share after checking it is one and asking (unless `--yes`).
 * @param target a gist id, a gist URL or a share URL.
 * @returns 0.
 */
export async function deleteShareCommand(
  flags: { target: string; yes: boolean },
  io: ShareIO,
): Promise<number> {
  const id = gistIdOf(flags.target);
  if (id === undefined) {
    throw new ConfigError(
      `${JSON.stringify(flags.target)} is not a gist id or URL (coord shares list shows your shares)`,
    );
  }
  const gh = await loggedInGh(io);
  const files = await gistFileNames(gh, id);
  if (!files.includes(MANIFEST_FILE)) {
    throw new ConfigError(
      `gist ${id} is not a coord share (it has no ${MANIFEST_FILE}): coord deletes only its own shares; use gh gist delete ${id} if you mean it`,
    );
  }
  const description = (await listGists(gh, DEFAULT_SHARES_LIMIT)).find(
    (gist) => gist.id === id,
  )?.description;
  const question = description?.startsWith(SHARE_DESCRIPTION_PREFIX)
    ? ` (${description.slice(SHARE_DESCRIPTION_PREFIX.length)})`
    : "";
  await confirmOrRefuse(
    {
      message: `Delete the shared run ${id}${question}? Its link will stop working.`,
      yes: flags.yes,
      refusal: `coord shares delete removes the gist ${id}: add --yes to confirm`,
    },
    io,
  );
  await deleteGist(gh, id);
  io.stdout.write(`Deleted ${id}\n`);
  return 0;
}

async function loggedInGh(io: ShareIO): Promise<GhRunner> {
  const gh = io.gh ?? ghRunner(io.env);
  await requireGhLogin(gh);
  return gh;
}

/** `2026-01-01T12:00:00Z` → `2026-01-01 12:00` (UTC, as gh gives it). */
function shortDate(date: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(date);
  return match ? `${match[1]} ${match[2]}` : date;
}
