/**
 * Which team answers a request (spec section 4.3 `model`): the server's configured team when it
 * has one (the request's `model` is then ignored), else the team the request's `model` names:
 * `@examples/NAME`, `path:FILE` (a config file in the operator's `--teams DIR`), or
 * `<backend>/<model>` for a single agent (quick setup).
 *
 * Routing reaches only what the operator consented to (docs/security.md):
 * `@examples/` names only built-in examples that do not act (no commands, file tools or MCP
 * servers); `path:` only regular files under `--teams DIR`, never inside a folder runs write
 * (`./team-policy.ts`), and a team there that acts only with `--allow-acting-teams`; a `local/`
 * model file only a regular file under the working directory (`./confined-file.ts`);
 * `claude_code` only through `--config`; and errors about a named file never echo its contents.
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, extname, resolve } from "node:path";
import type { Config } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { chooseMode, type ModeChoice, type PrepareFlags, prepareRun } from "../runner/index.js";
import { ApiError, invalidRequest } from "./api-error.js";
import { confinedFile } from "./confined-file.js";
import { actingReasons, insideRunOutput, runOutputRoots } from "./team-policy.js";
import { cachedTeam, type TeamCache } from "./team-cache.js";

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

/** Where configs are looked up, and which teams a request may reach. */
export interface TeamContext {
  cwd: string;
  /** The environment, with `~/.config/coord/.env` already merged in (loaded once at start). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * `coord serve --teams DIR` (absolute): `path:FILE` names a config file in it. Undefined:
   * `path:` is refused.
   */
  teamsDir?: string | undefined;
  /** `--allow-acting-teams`: a `path:` team that acts ({@link actingReasons}) may run. */
  allowActing?: boolean | undefined;
  /**
   * The server's routed teams already loaded (`./team-cache.ts`), for the same context; undefined:
   * every request loads its team.
   */
  cache?: TeamCache<ServedTeam> | undefined;
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
 *   says why); 400 `model_not_allowed` when it names a built-in example that acts, `path:`
 *   without `context.teamsDir`, a file outside it or inside a folder runs write, or a team that
 *   acts without `context.allowActing`.
 */
export async function teamForModel(
  model: string | undefined,
  context: TeamContext,
): Promise<ServedTeam> {
  const { BACKEND_TYPES } = await import("../config/backend-types.js");
  const forms = `"@examples/NAME" (a built-in example that does not act), "${PATH_PREFIX}FILE" (a config file in the server's --teams folder) or "<backend>/<model>" (one agent; backend one of ${BACKEND_TYPES.join(", ")})`;
  if (model === undefined || model.trim() === "") {
    throw invalidRequest(
      `model is required when the server has no config (start it with --config to serve one team): use ${forms}`,
      "model",
      "model_required",
    );
  }
  try {
    if (model.startsWith("@examples/")) {
      return await cachedTeam(context.cache, model, await exampleStamp(model), async () => {
        const team = await loadServedTeam(model, context, model);
        const acts = actingReasons(team.config, team.agentIndexes);
        if (acts.length > 0) {
          throw invalidRequest(
            `model ${JSON.stringify(model)}: this example acts on the server (${acts.join("; ")}), so a request cannot choose it; the operator can serve it with coord serve --config ${model} --allow-acting-teams`,
            "model",
            "model_not_allowed",
          );
        }
        return team;
      });
    }
    if (model.startsWith(PATH_PREFIX)) {
      const file = model.slice(PATH_PREFIX.length);
      if (context.teamsDir === undefined) {
        throw invalidRequest(
          `model ${JSON.stringify(model)}: this server serves no folder of team configs; the operator names one with coord serve --teams DIR (or serves one team with --config FILE)`,
          "model",
          "model_not_allowed",
        );
      }
      if (file === "") throw new ConfigError(`${PATH_PREFIX} needs a file name`);
      return await routedConfigFile(file, model, { ...context, teamsDir: context.teamsDir });
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
          ? (
              await confinedFile(name, {
                cwd: context.cwd,
                model,
                read: false,
                forbidden: runOutputRoots(context.cwd, context.env),
              })
            ).path
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
 * The stamp of a built-in example's file (`./team-cache.ts`): its identity, size and modification
 * time; undefined when it cannot be found (loading it then says why).
 */
async function exampleStamp(model: string): Promise<string | undefined> {
  const { resolveConfigPath } = await import("../config/index.js");
  try {
    const path = resolveConfigPath(model, "/");
    const stats = await stat(path, { bigint: true });
    return `${path}\0${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/** Extensions of a config file a request may name. */
const CONFIG_EXTENSIONS = [".yaml", ".yml"];

/**
 * A `path:FILE` team: a `.yaml`/`.yml` file under the teams folder, read confined
 * ({@link confinedFile}, never from a folder runs write) and validated; a config error says where
 * the first problem is but not what the file holds. A team that acts needs `allowActing`, and its
 * snapshot folders may not lie in the teams folder (its runs would write configs there).
 */
async function routedConfigFile(
  file: string,
  model: string,
  context: TeamContext & { teamsDir: string },
): Promise<ServedTeam> {
  const notAllowed = (why: string) =>
    invalidRequest(`model ${JSON.stringify(model)}: ${why}`, "model", "model_not_allowed");
  if (!CONFIG_EXTENSIONS.includes(extname(file).toLowerCase()))
    throw notAllowed("a team config is a .yaml or .yml file in the server's --teams folder");
  const { path, text } = await confinedFile(file, {
    cwd: context.teamsDir,
    model,
    read: true,
    rootName: "the server's --teams folder",
    forbidden: runOutputRoots(context.cwd, context.env),
  });
  // Confined and read on every request; parsed and checked again only when the text changed.
  const stamp = `${path}\0${createHash("sha256")
    .update(text ?? "")
    .digest("hex")}`;
  return cachedTeam(context.cache, model, stamp, () =>
    checkedConfigFile({ file, model, path, text: text ?? "" }, context),
  );
}

/**
 * A `path:` team's file text parsed, validated and checked against the server's consent
 * ({@link routedConfigFile}).
 */
async function checkedConfigFile(
  read: { file: string; model: string; path: string; text: string },
  context: TeamContext & { teamsDir: string },
): Promise<ServedTeam> {
  const { file, model, path, text } = read;
  const notAllowed = (why: string) =>
    invalidRequest(`model ${JSON.stringify(model)}: ${why}`, "model", "model_not_allowed");
  const { parseConfigText } = await import("../config/index.js");
  let config: Config;
  try {
    config = parseConfigText(text, { source: file, env: context.env }).config;
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
  const choice = chooseMode(config, {});
  const acts = actingReasons(config, choice.agentIndexes);
  if (acts.length > 0 && context.allowActing !== true) {
    throw notAllowed(
      `this team acts on the server (${acts.join("; ")}); the operator must start coord serve with --allow-acting-teams to serve it`,
    );
  }
  if (acts.length > 0) {
    const outputs = runOutputRoots(context.cwd, context.env);
    const written = writtenFolders(config, context.cwd).filter(
      (folder) =>
        insideRunOutput(folder, [context.teamsDir], context.teamsDir) !== undefined &&
        insideRunOutput(folder, outputs, context.teamsDir) === undefined,
    );
    if (written.length > 0)
      throw notAllowed(
        "it writes into the --teams folder (orchestrator.snapshot_storage, agent_temporary_workspace or a context path with permission: write), where files its runs write could be loaded as configs",
      );
  }
  return { config, ...choice, id: model, path, warnings: [] };
}

/** Folders a team's runs write besides the run log and `.coord/`: snapshot folders, writable context paths. */
function writtenFolders(config: Config, cwd: string): string[] {
  const { snapshot_storage, agent_temporary_workspace, context_paths } = config.orchestrator;
  return [
    snapshot_storage,
    agent_temporary_workspace,
    ...context_paths.filter((path) => path.permission === "write").map((path) => path.path),
  ]
    .filter((folder): folder is string => folder !== undefined)
    .map((folder) => resolve(cwd, folder));
}

/**
 * The built-in examples a request may choose: those that do not act ({@link actingReasons}), as
 * `@examples/NAME`, sorted. An example that cannot be loaded here is left out.
 */
export async function quietExamples(context: TeamContext): Promise<string[]> {
  const { listExamples } = await import("../config/examples.js");
  const names: string[] = [];
  for (const name of listExamples()) {
    const id = `@examples/${name}`;
    const team = await loadServedTeam(id, context, id).catch(() => undefined);
    if (team && actingReasons(team.config, team.agentIndexes).length === 0) names.push(id);
  }
  return names;
}

/** The `.yaml`/`.yml` files at the top of the teams folder, as `path:FILE`, sorted; none without one. */
export async function teamFiles(teamsDir: string | undefined): Promise<string[]> {
  if (teamsDir === undefined) return [];
  const { readdir } = await import("node:fs/promises");
  const entries = await readdir(teamsDir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter(
      (entry) => entry.isFile() && CONFIG_EXTENSIONS.includes(extname(entry.name).toLowerCase()),
    )
    .map((entry) => `${PATH_PREFIX}${entry.name}`)
    .sort();
}
