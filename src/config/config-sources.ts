/**
 * The configs `--select` and the setup wizard offer (spec section 2 "Configuration sources offered
 * by `--select`"): the user's configs in `~/.config/coord/agents/`, the project's `.coord/*.yaml`,
 * `*.yaml` in the working directory, and the built-in examples, grouped by category. Each entry
 * carries its agents and models, or why it cannot be used.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parseDocument } from "yaml";
import { ConfigError } from "../errors.js";
import {
  configDescription,
  EXAMPLE_CATEGORIES,
  EXAMPLES_PREFIX,
  exampleCategory,
  examplesDir,
  listExamples,
  OTHER_EXAMPLES_LABEL,
} from "./examples.js";
import { userConfigDir } from "./discovery.js";
import type { EnvRecord } from "./expand-env.js";
import { parseConfigText } from "./load.js";

/** Where a listed config comes from. */
export type ConfigSourceKind = "user" | "project" | "directory" | "example";

/** One agent of a listed config. */
export interface ListedAgent {
  id: string;
  type: string;
  model: string | undefined;
}

/** One config offered by `--select`. */
export interface ConfigEntry {
  kind: ConfigSourceKind;
  /** File name without `.yaml`. */
  name: string;
  /** Absolute path of the file. */
  path: string;
  /** What `--config` takes to name it: `@examples/NAME` for an example, else `path`. */
  configArg: string;
  /** The first sentence of the file's leading comment, if any. */
  description: string | undefined;
  /** The agents, when the config is valid. */
  agents: ListedAgent[];
  /** Why the config cannot run (one line), when it is not valid. */
  error: string | undefined;
}

/** A group of entries: one per source, one per category of examples. */
export interface ConfigCategory {
  /** `Your configs`, `This project`, `This directory`, `Examples: getting started`, … */
  label: string;
  /** Where its files live: `~/.config/coord/agents/`, `.coord/`, `./`, `built-in`. */
  where: string;
  entries: ConfigEntry[];
}

/** `~/.config/coord/agents/` (`$XDG_CONFIG_HOME/coord/agents/` when set), the user's own configs. */
export function userConfigsDir(home: string): string {
  return join(userConfigDir(home), "agents");
}

/**
 * Lists every config of the four sources, by category, in this order: the user's, the
 * project's, the working directory's, then the examples by {@link EXAMPLE_CATEGORIES}. Empty
 * categories are left out. In the working directory only YAML files with a top-level `agents` (or
 * `agent`) key count: other YAML there (CI files, compose files) is not a coord config.
 *
 * @param options.env variables for `${VAR}` expansion (the environment with `.env` merged in).
 */
export async function listConfigSources(options: {
  cwd: string;
  home: string;
  env: EnvRecord;
}): Promise<ConfigCategory[]> {
  const { env } = options;
  const categories: ConfigCategory[] = [
    {
      label: "Your configs",
      where: "~/.config/coord/agents/",
      entries: await listFolder(userConfigsDir(options.home), "user", env),
    },
    {
      label: "This project",
      where: ".coord/",
      entries: await listFolder(join(options.cwd, ".coord"), "project", env),
    },
    {
      label: "This directory",
      where: "./",
      entries: await listFolder(options.cwd, "directory", env),
    },
  ];
  const examples = await Promise.all(
    listExamples().map((name) => readEntry(join(examplesDir(), `${name}.yaml`), "example", env)),
  );
  const labels = [...EXAMPLE_CATEGORIES.map((category) => category.label), OTHER_EXAMPLES_LABEL];
  for (const label of labels) {
    const order = EXAMPLE_CATEGORIES.find((category) => category.label === label)?.examples ?? [];
    const entries = examples
      .filter((entry): entry is ConfigEntry => entry !== undefined)
      .filter((entry) => exampleCategory(entry.name) === label)
      .sort((a, b) => rank(order, a.name) - rank(order, b.name));
    categories.push({ label: `Examples: ${label}`, where: "built-in", entries });
  }
  return categories.filter((category) => category.entries.length > 0);
}

/**
 * The agents as one short line: `3 agents: openai gpt-4o-mini, openai gpt-4.1-mini, …`;
 * repeated backends are counted (`2 agents: local model.gguf ×2`), file paths shortened to their
 * name.
 */
export function describeAgents(agents: readonly ListedAgent[]): string {
  const counts = new Map<string, number>();
  for (const agent of agents) {
    const model =
      agent.model === undefined || agent.model === agent.type ? "" : ` ${shortModel(agent.model)}`;
    const key = `${agent.type}${model}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts].map(([key, count]) => (count > 1 ? `${key} ×${count}` : key));
  return `${agents.length} agent${agents.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

function shortModel(model: string): string {
  return /[\\/]/.test(model) && /\.gguf$/i.test(model) ? basename(model) : model;
}

function rank(order: readonly string[], name: string): number {
  const index = order.indexOf(name);
  return index < 0 ? order.length : index;
}

async function listFolder(
  folder: string,
  kind: ConfigSourceKind,
  env: EnvRecord,
): Promise<ConfigEntry[]> {
  const names = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files = names
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".yaml"))
    .map((entry) => entry.name)
    .sort();
  const entries = await Promise.all(files.map((name) => readEntry(join(folder, name), kind, env)));
  return entries.filter((entry): entry is ConfigEntry => entry !== undefined);
}

/** Reads and checks one file; undefined for a working-directory YAML that is no coord config. */
async function readEntry(
  path: string,
  kind: ConfigSourceKind,
  env: EnvRecord,
): Promise<ConfigEntry | undefined> {
  const name = basename(path, ".yaml");
  const entry: ConfigEntry = {
    kind,
    name,
    path,
    configArg: kind === "example" ? `${EXAMPLES_PREFIX}${name}` : path,
    description: undefined,
    agents: [],
    error: undefined,
  };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { ...entry, error: `cannot read it: ${(error as Error).message}` };
  }
  if (kind === "directory" && !looksLikeConfig(text)) return undefined;
  entry.description = configDescription(text);
  try {
    const { config } = parseConfigText(text, { source: basename(path), env });
    entry.agents = config.agents.map((agent) => ({
      id: agent.id,
      type: agent.backend.type,
      model: agent.backend.model,
    }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    entry.error = error.message.split("\n")[0];
  }
  return entry;
}

/** True when the YAML's top level is a mapping with `agents` or `agent` (coord's and MassGen's). */
function looksLikeConfig(text: string): boolean {
  try {
    const doc = parseDocument(text);
    return doc.has("agents") || doc.has("agent");
  } catch {
    return false;
  }
}
