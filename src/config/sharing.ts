/**
 * The sharing settings of `coord export` and `coord shares` (spec §2 "Shared session":
 * `{viewer_url}/?gist=<gist_id>`; docs/sharing.md "The share page and viewer_url"):
 * `COORD_VIEWER_URL`, else `sharing.viewer_url` of the discovered config, else
 * {@link DEFAULT_VIEWER_URL}.
 *
 * The discovered config is only read, not validated as a team: sharing needs no agents or keys,
 * and an unset `${VAR}` elsewhere in the file must not stop an export.
 */
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { z } from "zod";
import { ConfigError } from "../errors.js";
import { discoverConfig } from "./discovery.js";

/** The project's hosted copy of the share page. */
export const DEFAULT_VIEWER_URL = "https://coord-cli.github.io/share";

/** The environment variable that sets the viewer URL. */
export const VIEWER_URL_ENV = "COORD_VIEWER_URL";

/** An http(s) URL. */
const ViewerUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

/** `sharing:` in a config file. */
export const SharingConfig = z.object({
  viewer_url: ViewerUrl.optional().describe(
    `Where the share page is hosted; \`coord export\` prints \`{viewer_url}/?gist=<id>\`. ${VIEWER_URL_ENV} wins; default ${DEFAULT_VIEWER_URL} (docs/sharing.md).`,
  ),
});
export type SharingConfig = z.infer<typeof SharingConfig>;

/** The resolved sharing settings. */
export interface SharingSettings {
  /** Without a trailing `/`. */
  viewerUrl: string;
  /** Where {@link viewerUrl} came from. */
  source: "env" | "config" | "default";
  /** The discovered config file, when there is one. */
  configPath: string | undefined;
  /** The discovered config as parsed YAML (no `${VAR}` expansion), for secret collection. */
  config: unknown;
}

/**
 * Resolves the sharing settings.
 * @throws ConfigError when `COORD_VIEWER_URL` or `sharing.viewer_url` is not an http(s) URL, or
 *   the discovered config is not valid YAML (names the file or variable and the fix).
 */
export async function readSharingSettings(options: {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<SharingSettings> {
  const configPath = await discoverConfig(options);
  let config: unknown;
  if (configPath !== undefined) {
    try {
      config = parse(await readFile(configPath, "utf8")) as unknown;
    } catch (error) {
      throw new ConfigError(
        `${configPath}: invalid YAML (${oneLineMessage(error)}): fix the file (coord reads sharing.viewer_url from it)`,
        { file: configPath },
      );
    }
  }
  const fromEnv = options.env[VIEWER_URL_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    return {
      viewerUrl: checkUrl(fromEnv.trim(), VIEWER_URL_ENV),
      source: "env",
      configPath,
      config,
    };
  }
  const sharing = (config as { sharing?: { viewer_url?: unknown } } | null | undefined)?.sharing;
  const fromConfig = sharing?.viewer_url;
  if (fromConfig !== undefined && fromConfig !== null) {
    const where = `${configPath}: sharing.viewer_url`;
    if (typeof fromConfig !== "string") throw new ConfigError(`${where} must be a URL string`);
    return { viewerUrl: checkUrl(fromConfig.trim(), where), source: "config", configPath, config };
  }
  return { viewerUrl: DEFAULT_VIEWER_URL, source: "default", configPath, config };
}

/** `{viewer_url}/?gist=<id>`. */
export function shareUrl(viewerUrl: string, gistId: string): string {
  return `${viewerUrl}/?gist=${encodeURIComponent(gistId)}`;
}

function checkUrl(value: string, where: string): string {
  const parsed = ViewerUrl.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(
      `${where} ${JSON.stringify(value)} ${parsed.error.issues[0]?.message ?? "is not a URL"} (e.g. https://you.github.io/coord-share)`,
    );
  }
  return value.replace(/\/+$/, "");
}

function oneLineMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
