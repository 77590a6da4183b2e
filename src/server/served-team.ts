/**
 * Which team answers a request (spec section 4.3 `model`): the server's configured team when it
 * has one (the request's `model` is then ignored), else the team the request's `model` names:
 * `@examples/NAME`, `path:FILE` (a config file on the server, relative to its working
 * directory), or `<backend>/<model>` for a single agent (quick setup).
 *
 * Routing is confined (docs/server.md "Security"): `@examples/` names only built-in examples,
 * `path:` and a `local/` model file only regular files under the working directory
 * (`./confined-file.ts`), `claude_code` (a code agent with file access on the server) only
 * through `--config`; and errors about a named file never echo its contents.
 */
import { homedir } from "node:os";
import { basename, extname } from "node:path";
import type { Config } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { chooseMode, type ModeChoice, type PrepareFlags, prepareRun } from "../runner/index.js";
import { ApiError, invalidRequest } from "./api-error.js";
import { confinedFile } from "./confined-file.js";

/** A team ready to run: its config, mode and agents, and the model id it is served as. */
export interface ServedTeam extends ModeChoice {
  config: Config;
  /** The model id in responses and `GET /v1/models`, e.g. `coord/scripted_team`. */
  id: string;
  /** Absolute path of the config file; undefined for quick setup. */
  path: string | undefined;
  /** Load warnings (unknown keys…), one line each. */
  warnings: string[];
}

/** Where configs are looked up. */
export interface TeamContext {
  cwd: string;
  /** The environment, with `~/.config/coord/.env` already merged in (loaded once at start). */
  env: Readonly<Record<string, string | undefined>>;
}

/** Prepares the run the flags name (`prepareRun`, with the server's already loaded environment). */
async function prepare(flags: PrepareFlags, context: TeamContext, id: string): Promise<ServedTeam> {
  const prepared = await prepareRun(flags, {
    cwd: context.cwd,
    home: context.env.HOME ?? homedir(),
    env: context.env,
    envLoaded: true,
  });
  return {
    config: prepared.config,
    mode: prepared.mode,
    agentIndexes: prepared.agentIndexes,
    id,
    path: prepared.configPath,
    warnings: prepared.warnings,
  };
}

/** Prefix of a `model` naming a config file on the server. */
export const PATH_PREFIX = "path:";

/**
 * Loads a config file (a path, or `@examples/NAME`) as a served team.
 * @param id the model id to serve it as; default `coord/<file name without extension>`.
 * @throws ConfigError when the file cannot be read or is invalid, a backend cannot run in this
 *   version, or the config asks for a coordination mode this version does not run.
 */
export async function loadServedTeam(
  configArg: string,
  context: TeamContext,
  id?: string,
): Promise<ServedTeam> {
  const team = await prepare({ config: configArg }, context, id ?? "");
  if (id === undefined && team.path !== undefined)
    team.id = `coord/${basename(team.path, extname(team.path))}`;
  return team;
}

/**
 * The team a request's `model` names when the server has no config of its own.
 * @throws ApiError 400 (`param: "model"`) when `model` is missing, has none of the accepted forms
 *   (the message lists them), or names a config or backend that cannot be loaded (the message
 *   says why).
 */
export async function teamForModel(
  model: string | undefined,
  context: TeamContext,
): Promise<ServedTeam> {
  const { BACKEND_TYPES } = await import("../config/backend-types.js");
  const forms = `"@examples/NAME" (a built-in example), "${PATH_PREFIX}FILE" (a config file on the server) or "<backend>/<model>" (one agent; backend one of ${BACKEND_TYPES.join(", ")})`;
  if (model === undefined || model.trim() === "") {
    throw invalidRequest(
      `model is required when the server has no config (start it with --config to serve one team): use ${forms}`,
      "model",
      "model_required",
    );
  }
  try {
    if (model.startsWith("@examples/")) return await loadServedTeam(model, context, model);
    if (model.startsWith(PATH_PREFIX)) {
      const file = model.slice(PATH_PREFIX.length);
      if (file === "") throw new ConfigError(`${PATH_PREFIX} needs a file name`);
      return await routedConfigFile(file, model, context);
    }
    const slash = model.indexOf("/");
    const backend = slash > 0 ? model.slice(0, slash) : "";
    if (
      slash > 0 &&
      slash < model.length - 1 &&
      (BACKEND_TYPES as readonly string[]).includes(backend)
    ) {
      const name = model.slice(slash + 1);
      if (backend === "claude_code") {
        throw invalidRequest(
          `model ${JSON.stringify(model)}: claude_code runs a code agent with file access on the server, so a request cannot choose it; serve it with coord serve --config FILE`,
          "model",
          "model_not_allowed",
        );
      }
      // A local model is a file on the server: confined like path:FILE.
      const local =
        backend === "local"
          ? (await confinedFile(name, { cwd: context.cwd, model, read: false })).path
          : name;
      return await prepare({ backend, model: local }, context, model);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      throw invalidRequest(
        `model ${JSON.stringify(model)}: ${error.message}`,
        "model",
        "model_not_found",
      );
    }
    throw error;
  }
  throw invalidRequest(
    `model ${JSON.stringify(model)} is not one this server accepts: use ${forms}`,
    "model",
    "model_not_found",
  );
}

/**
 * A `path:FILE` team: the file is read confined ({@link confinedFile}) and validated; a config
 * error says where the first problem is but not what the file holds.
 */
async function routedConfigFile(
  file: string,
  model: string,
  context: TeamContext,
): Promise<ServedTeam> {
  const { path, text } = await confinedFile(file, { cwd: context.cwd, model, read: true });
  const { parseConfigText } = await import("../config/index.js");
  let config: Config;
  try {
    config = parseConfigText(text ?? "", { source: file, env: context.env }).config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const { line, column } = error.details;
    const where = line === undefined ? "" : ` (first problem at line ${line}, column ${column})`;
    throw new ApiError(
      400,
      `model ${JSON.stringify(model)}: the file is not a valid coord config${where}; check it on the server with coord --config ${JSON.stringify(file)}`,
      { param: "model", code: "model_invalid_config" },
    );
  }
  return { config, ...chooseMode(config, {}), id: model, path, warnings: [] };
}
