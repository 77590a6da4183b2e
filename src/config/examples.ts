/**
 * Built-in example configs, addressed as `@examples/NAME` (spec section 2 "Configuration file":
 * the `.yaml` extension may be omitted). They live in the package's `examples/` folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../errors.js";

/** The prefix that names a built-in example. */
export const EXAMPLES_PREFIX = "@examples/";

let cachedPackageRoot: string | undefined;

/**
 * The folder holding coord's package.json: found by walking up from this file, so it works from
 * `src/config/` (tests) and from `dist/src/config/` (the built CLI, installed or not).
 *
 * @throws Error when no package.json named `coord` is found above this file (a broken install).
 */
export function packageRoot(): string {
  if (cachedPackageRoot !== undefined) return cachedPackageRoot;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, "package.json");
    if (existsSync(manifest) && readPackageName(manifest) === "coord") {
      cachedPackageRoot = folder;
      return folder;
    }
    const parent = dirname(folder);
    if (parent === folder)
      throw new Error("coord's package.json not found above " + import.meta.url);
    folder = parent;
  }
}

/** The absolute path of the built-in examples folder. */
export function examplesDir(): string {
  return join(packageRoot(), "examples");
}

/** The names of the built-in examples (file names without `.yaml`), sorted. */
export function listExamples(): string[] {
  return readdirSync(examplesDir())
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => name.slice(0, -".yaml".length))
    .sort();
}

/** A group of built-in examples, as the setup wizard and `--select` list them. */
export interface ExampleCategory {
  /** Shown as `Examples: <label>`. */
  label: string;
  /** Example names, in the order they are listed. */
  examples: readonly string[];
}

/**
 * The built-in examples by category. An example not listed here is shown under
 * {@link OTHER_EXAMPLES_LABEL}, so a new example is never hidden.
 */
export const EXAMPLE_CATEGORIES: readonly ExampleCategory[] = [
  { label: "getting started", examples: ["single_agent", "three_agents", "scripted_team"] },
  {
    label: "local and self-hosted models",
    examples: ["local_team", "openai_compatible_team"],
  },
  { label: "agents that act (files, commands, MCP)", examples: ["tools_team", "scripted_tools"] },
  {
    label: "other ways to coordinate",
    examples: [
      "decomposition_team",
      "decomposition_scripted",
      "personas_team",
      "scripted_planning",
    ],
  },
  { label: "log analysis", examples: ["log_analysis"] },
];

/** The category of built-in examples that {@link EXAMPLE_CATEGORIES} does not list. */
export const OTHER_EXAMPLES_LABEL = "more";

/** The category label of the built-in example `name`. */
export function exampleCategory(name: string): string {
  return (
    EXAMPLE_CATEGORIES.find((category) => category.examples.includes(name))?.label ??
    OTHER_EXAMPLES_LABEL
  );
}

/**
 * The first sentence of a config's leading comment (`# One agent on OpenAI: the smallest useful
 * config.` → that text without `#`), the one-line description the examples start with; the
 * comment may wrap over several lines. Undefined when the file starts with no comment.
 */
export function configDescription(text: string): string | undefined {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const comment = /^\s*#\s?(.*)$/.exec(line);
    if (comment === null || comment[1]!.trim() === "") break;
    lines.push(comment[1]!.trim());
  }
  const paragraph = lines.join(" ");
  if (paragraph === "") return undefined;
  const end = /[.!?](?=\s|$)/.exec(paragraph);
  return end === null ? paragraph : paragraph.slice(0, end.index + 1);
}

/**
 * Resolves a `--config` argument to an absolute file path. `@examples/NAME` and
 * `@examples/NAME.yaml` name a built-in example; anything else is a path relative to `cwd`.
 * Whether an ordinary path exists is checked when the file is loaded.
 *
 * @throws ConfigError when `@examples/NAME` names no built-in example (the message lists them).
 */
export function resolveConfigPath(arg: string, cwd: string): string {
  if (!arg.startsWith(EXAMPLES_PREFIX)) return resolve(cwd, arg);
  const name = arg.slice(EXAMPLES_PREFIX.length).replace(/\.yaml$/, "");
  const available = listExamples();
  if (!available.includes(name)) {
    throw new ConfigError(
      `unknown example ${JSON.stringify(arg)}: built-in examples are ${available
        .map((example) => EXAMPLES_PREFIX + example)
        .join(", ")}`,
      { file: arg },
    );
  }
  return join(examplesDir(), `${name}.yaml`);
}

function readPackageName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
