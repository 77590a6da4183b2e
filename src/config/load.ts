/**
 * Loads a YAML config file: YAML with positions, `${VAR}` expansion, MassGen compatibility,
 * unknown keys as warnings, validation errors as one positioned line each (CONTRIBUTING.md
 * rules 7, 8; spec section 2 "Configuration file").
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { LineCounter, parseDocument, type Document } from "yaml";
import { ConfigError } from "../errors.js";
import { registerConfigSecrets } from "../redact.js";
import { checkConfig, type ConfigProblem } from "./check-config.js";
import { describeIssue, issueKeyPath } from "./describe-issue.js";
import { expandEnv, isMcpServersPath, isPlainObject, type EnvRecord } from "./expand-env.js";
import { findForbiddenKey } from "./forbidden-keys.js";
import { formatKeyPath, type KeyPath } from "./key-path.js";
import { normalizeConfig } from "./normalize-config.js";
import { massgenOnlyTypeMessage } from "./massgen-types.js";
import { ConfigSchema, type Config } from "./schema.js";
import { unusedKeys, type UnusedKeyWarningKind } from "./unused-keys.js";
import { locateKeyPath, type SourcePosition } from "./yaml-positions.js";

/** A problem that does not stop loading (a key coord does not read, a YAML warning). */
export interface ConfigWarning {
  /** The whole line to print: `file:line:col: unknown key agents[0].foo (ignored)`. */
  message: string;
  file: string;
  /** Dotted key path as written in the file; empty for YAML warnings. */
  path: string;
  /**
   * Why: `unknown` key, `unsupported` / `not-needed` / `use-instead` (a MassGen key), `unread` (a
   * key the agent's backend type does not read), `yaml`.
   */
  kind: UnusedKeyWarningKind | "yaml";
  line: number;
  column: number;
}

/** A validated config and the warnings found on the way. */
export interface ParsedConfig {
  config: Config;
  warnings: ConfigWarning[];
}

/** {@link ParsedConfig} plus the absolute path of the file it came from. */
export interface LoadedConfig extends ParsedConfig {
  path: string;
}

/** Validation problems listed in one error before the rest are counted. */
const MAX_LISTED_PROBLEMS = 10;

/**
 * Reads and validates a config file.
 *
 * @param path The file (absolute, or relative to the process's working directory); resolve
 *   `@examples/NAME` first with `resolveConfigPath`.
 * @param options.env Variables for `${VAR}` expansion (the environment merged with
 *   `~/.config/coord/.env`, see `loadEnvFiles`).
 * @param options.cwd The working directory, for MassGen's `${cwd}` (see {@link parseConfigText}).
 * @throws ConfigError when the file cannot be read, is not valid YAML, uses an unset `${VAR}`, or
 *   fails validation; the message holds one `file:line:col: key.path: what is wrong` line per
 *   problem.
 */
export async function loadConfigFile(
  path: string,
  options: { env: EnvRecord; cwd?: string },
): Promise<LoadedConfig> {
  const absolutePath = resolve(path);
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "config file not found (built-in examples are named @examples/NAME)"
        : code === "EISDIR"
          ? "is a directory, not a config file"
          : `cannot read the config file: ${(error as Error).message}`;
    throw new ConfigError(`${path}: ${reason}`, { file: path });
  }
  return {
    ...parseConfigText(text, {
      source: path,
      env: options.env,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    }),
    path: absolutePath,
  };
}

/**
 * Parses and validates config text.
 *
 * @param options.source File name used in messages (default `<config>`).
 * @param options.env Variables for `${VAR}` / `${VAR:-default}` expansion in the string values coord
 *   reads (keys it warns about are left as written; `mcp_servers` expand when each server starts).
 * @param options.cwd The working directory: MassGen's `${cwd}` outside `mcp_servers` (inside them
 *   it is the agent's workspace, expanded when the server starts).
 * @returns The config with every default filled in, and warnings (unknown keys with their dotted
 *   path and position, YAML warnings).
 * @throws ConfigError for YAML syntax errors, a `__proto__` / `constructor` / `prototype` key
 *   anywhere (forbidden-keys.ts), a MassGen-only backend type (`ag2`, …), an unset
 *   `${VAR}` without default in a key coord reads, `agent:` together
 *   with `agents:`, schema violations, duplicate agent ids, a missing `backend.model`, or a
 *   `presenter_agent` that names no agent.
 */
export function parseConfigText(
  text: string,
  options: { source?: string; env: EnvRecord; cwd?: string },
): ParsedConfig {
  const file = options.source ?? "<config>";
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  const positionOf = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntaxError = doc.errors[0];
  if (syntaxError !== undefined) {
    const position = positionOf(syntaxError.pos[0]);
    throw new ConfigError(`${where(file, position)}: invalid YAML: ${syntaxError.message}`, {
      file,
      ...position,
    });
  }
  const warnings: ConfigWarning[] = doc.warnings.map((warning) => {
    const position = positionOf(warning.pos[0]);
    return {
      message: `${where(file, position)}: YAML: ${warning.message}`,
      file,
      path: "",
      kind: "yaml",
      ...position,
    };
  });
  const fail = (path: KeyPath, what: string): never => {
    const position = locateKeyPath(doc, lineCounter, path);
    const key = formatKeyPath(path);
    throw new ConfigError(`${where(file, position)}: ${key}: ${what}`, {
      file,
      path: key,
      ...position,
    });
  };

  const forbidden = findForbiddenKey(doc);
  if (forbidden !== undefined) {
    const position = locateKeyPath(doc, lineCounter, forbidden.path, { at: "key" });
    const key = formatKeyPath(forbidden.path);
    throw new ConfigError(`${where(file, position)}: ${key}: ${forbidden.text}`, {
      file,
      path: key,
      ...position,
    });
  }
  const raw = toPlainData(doc, file);
  if (raw === undefined || raw === null) {
    throw new ConfigError(
      `${file}: the config is empty: add an \`agents:\` list (see coord --config @examples/single_agent)`,
      { file },
    );
  }
  if (!isPlainObject(raw)) {
    fail(
      [],
      `expected a mapping (agents:, orchestrator:, …), received ${Array.isArray(raw) ? "array" : typeof raw}`,
    );
  }
  const top = raw as Record<string, unknown>;
  if (top.agent !== undefined && top.agents !== undefined) {
    fail(["agent"], "use either `agent:` (one agent) or `agents:` (a list), not both");
  }
  const { data: written, toDocumentPath } = normalizeConfig(top);
  const at = (path: KeyPath, position: "key" | "value" = "value") => {
    const documentPath = toDocumentPath(path);
    return {
      key: formatKeyPath(documentPath),
      position: locateKeyPath(doc, lineCounter, documentPath, { at: position }),
    };
  };
  for (const [index, agent] of (Array.isArray(written.agents) ? written.agents : []).entries()) {
    const type = isPlainObject(agent) && isPlainObject(agent.backend) ? agent.backend.type : "";
    const refusal = massgenOnlyTypeMessage(type);
    if (refusal !== undefined) fail(toDocumentPath(["agents", index, "backend", "type"]), refusal);
  }

  // Keys coord does not read are warned about and never expanded: an unset ${VAR} there is no
  // error. MCP servers expand theirs when each starts (docs/tools.md).
  const unused = unusedKeys(written, options.env);
  const skipped = new Set(unused.map((entry) => formatKeyPath(entry.path)));
  const missing: ConfigProblem[] = [];
  const variables = options.cwd === undefined ? options.env : { cwd: options.cwd, ...options.env };
  const data = expandEnv(
    written,
    variables,
    (path, variable) => {
      missing.push({
        path,
        text: `environment variable ${variable} is not set: set it in the environment or ~/.config/coord/.env, or write \${${variable}:-default}`,
      });
      return "";
    },
    [],
    (path) => isMcpServersPath(path) || skipped.has(formatKeyPath(path)),
  ) as Record<string, unknown>;
  // Keys written in the file or expanded from ${VAR}: no output path may print them.
  registerConfigSecrets(data);
  for (const entry of unused) {
    const { key, position } = at(entry.path, "key");
    warnings.push({
      message: `${where(file, position)}: ${entry.describe(key)}`,
      file,
      path: key,
      kind: entry.kind,
      ...position,
    });
  }
  warnings.sort((first, second) => first.line - second.line || first.column - second.column);

  const result = ConfigSchema.safeParse(data);
  // A value with an unset variable is reported once, as that.
  const unset = new Set(missing.map((problem) => formatKeyPath(problem.path)));
  const problems: ConfigProblem[] = [
    ...missing,
    ...(result.success
      ? checkConfig(result.data)
      : result.error.issues.map((issue) => ({
          path: issueKeyPath(issue),
          text: describeIssue(issue, data),
        }))
    ).filter((problem) => !unset.has(formatKeyPath(problem.path))),
  ];
  if (problems.length > 0 || !result.success) {
    throw problemsError(problems, {
      file,
      locate: (path) => at(path),
    });
  }
  return { config: result.data, warnings };
}

/** One ConfigError listing every problem, one `file:line:col: key: text` line each. */
function problemsError(
  problems: ConfigProblem[],
  options: { file: string; locate: (path: KeyPath) => { key: string; position: SourcePosition } },
): ConfigError {
  const located = problems.map((problem) => ({
    ...options.locate(problem.path),
    text: problem.text,
  }));
  const lines = located
    .slice(0, MAX_LISTED_PROBLEMS)
    .map(({ key, position, text }) => `${where(options.file, position)}: ${key}: ${text}`);
  if (located.length > MAX_LISTED_PROBLEMS) {
    lines.push(`… and ${located.length - MAX_LISTED_PROBLEMS} more problems`);
  }
  const first = located[0];
  return new ConfigError(lines.join("\n"), {
    file: options.file,
    ...(first === undefined ? {} : { path: first.key, ...first.position }),
  });
}

function toPlainData(doc: Document, file: string): unknown {
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    throw new ConfigError(`${file}: invalid YAML: ${(error as Error).message}`, { file });
  }
  if (isCyclic(data, new Set())) {
    throw new ConfigError(
      `${file}: invalid YAML: an alias (*name) refers to a node that contains it, so the config never ends; copy the values instead`,
      { file },
    );
  }
  return data;
}

/** True when an object contains itself (a YAML alias inside its own anchor: `a: &x [*x]`). */
function isCyclic(value: unknown, ancestors: Set<object>): boolean {
  if (value === null || typeof value !== "object") return false;
  if (ancestors.has(value)) return true;
  ancestors.add(value);
  const children = value instanceof Map ? [...value.values()] : Object.values(value);
  const cyclic = children.some((child) => isCyclic(child, ancestors));
  ancestors.delete(value);
  return cyclic;
}

function where(file: string, position: SourcePosition): string {
  return `${file}:${position.line}:${position.column}`;
}
