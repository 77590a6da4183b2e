/**
 * `coord --validate [--config PATH] [--json] [--strict]`: checks a config offline and exits
 * (docs/scripting.md "Checking a config"): the schema, every key coord will not read (with why),
 * `${VAR}` placeholders in the keys it reads, the backend types, and what each agent needs to
 * start (its model, its API key variable, a `local` model file, Claude Code's credentials): each
 * agent's backend is set up as a run would, without any request. Nothing is sent anywhere.
 *
 * Exit 0 when the config is valid (warnings allowed), 1 when not; `--strict` counts warnings as
 * errors.
 */
import { ConfigError, CoordError, ExitCode } from "../errors.js";
import type { CommandIO } from "./io.js";

/** Flags of `coord --validate`. */
export interface ValidateFlags {
  config?: string | undefined;
  json: boolean;
  strict: boolean;
  /** `--offline`: unset API key variables get placeholders; key presence is not checked. */
  offline?: boolean | undefined;
}

/**
 * One finding: an error (invalid) or a warning (valid unless `--strict`). Errors and warnings in
 * the config file carry its `file`, the 1-based `line` and `column`, and the dotted `key` as
 * written (`agents[0].backend.type`; `path` is the same, kept for older scripts).
 */
export interface ValidationFinding {
  message: string;
  file?: string;
  key?: string;
  path?: string;
  line?: number;
  column?: number;
  /** For warnings: why the key is not read (`unknown`, `unsupported`, `unread`, …). */
  kind?: string;
}

/** The `--json` report. */
export interface ValidationReport {
  config: string | null;
  valid: boolean;
  strict: boolean;
  /** `--offline`: API key presence was not checked (./validate-offline.ts). */
  offline: boolean;
  errors: ValidationFinding[];
  warnings: ValidationFinding[];
  agents: { id: string; type: string; model: string | null; ready: boolean }[];
}

/**
 * Validates the config and prints the report (lines on stderr, or JSON on stdout).
 * @returns the exit code: 0 valid, 1 invalid (or warnings with `--strict`).
 */
export async function runValidate(flags: ValidateFlags, io: CommandIO): Promise<number> {
  const report = await validate(flags, io);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const warning of report.warnings) io.stderr.write(`coord: warning: ${warning.message}\n`);
    for (const error of report.errors) io.stderr.write(`coord: ${error.message}\n`);
    const counts = `${report.errors.length} error(s), ${report.warnings.length} warning(s)`;
    io.stdout.write(
      report.valid
        ? `${report.config}: valid (${counts}; ${report.agents.length} agent(s) ready${report.offline ? "; --offline: API keys not checked" : ""})\n`
        : `${report.config ?? "config"}: not valid (${counts}${report.strict && report.errors.length === 0 ? ", --strict" : ""})\n`,
    );
  }
  return report.valid ? ExitCode.success : ExitCode.usage;
}

async function validate(flags: ValidateFlags, io: CommandIO): Promise<ValidationReport> {
  const config = await import("../config/index.js");
  const report: ValidationReport = {
    config: flags.config ?? null,
    valid: false,
    strict: flags.strict,
    offline: flags.offline === true,
    errors: [],
    warnings: [],
    agents: [],
  };
  let env: Readonly<Record<string, string | undefined>> = await config.loadEnvFiles({
    home: io.home,
    env: io.env,
  });
  const configArg = flags.config ?? (await config.discoverConfig({ cwd: io.cwd, home: io.home }));
  if (configArg === undefined) {
    report.errors.push({ message: config.noConfigMessage() });
    return report;
  }
  report.config = configArg;
  // The file as messages name it (`@examples/NAME` resolved); set before anything can throw.
  let configPath = configArg;
  let loaded;
  try {
    configPath = config.resolveConfigPath(configArg, io.cwd);
    if (flags.offline) {
      const { offlineEnv } = await import("./validate-offline.js");
      env = await offlineEnv(env, config.resolveConfigPath(configArg, io.cwd));
    }
    loaded = await config.loadConfigFile(configPath, {
      env,
      cwd: io.cwd,
    });
  } catch (error) {
    if (!(error instanceof CoordError)) throw error;
    // One finding per problem line (the loader lists up to 10).
    const file = error instanceof ConfigError ? (error.details.file ?? configPath) : configPath;
    report.errors.push(...problemFindings(error.message, file));
    return report;
  }
  report.warnings = loaded.warnings.map((warning) => ({
    message: warning.message,
    file: warning.file,
    key: warning.path,
    path: warning.path,
    line: warning.line,
    column: warning.column,
    kind: warning.kind,
  }));
  const { createBackend } = await import("../backends/registry.js");
  for (const [index, agent] of loaded.config.agents.entries()) {
    let ready = false;
    try {
      const backend = await createBackend(agent, index, { env, cwd: io.cwd });
      ready = true;
      await backend.close?.();
    } catch (error) {
      if (!(error instanceof CoordError)) throw error;
      const at = await backendPosition(loaded.path, index);
      report.errors.push({ message: error.message, file: configPath, ...at });
    }
    report.agents.push({
      id: agent.id,
      type: agent.backend.type,
      model: agent.backend.model ?? null,
      ready,
    });
  }
  report.valid = report.errors.length === 0 && !(flags.strict && report.warnings.length > 0);
  return report;
}

/** A key path as the loader writes it: `agents[0].backend.type`, `extra["a.b"]`, `(top level)`. */
const KEY_AT_START =
  /^((?:[A-Za-z_][\w-]*|\["(?:[^"\\]|\\.)*"\])(?:\.[A-Za-z_][\w-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*|\(top level\)): /;

/**
 * The findings of a loader error, one per line: `file:line:col: key: what` lines give their
 * position and key; `file: what` its file; others (`… and 3 more problems`) the message only.
 */
export function problemFindings(message: string, file: string): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  for (const raw of message.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (!line.startsWith(`${file}:`)) {
      findings.push({ message: line });
      continue;
    }
    const position = /^(\d+):(\d+): (.*)$/s.exec(line.slice(file.length + 1));
    if (position === null) {
      findings.push({ message: line, file });
      continue;
    }
    const key = KEY_AT_START.exec(position[3] ?? "")?.[1];
    findings.push({
      message: line,
      file,
      ...(key !== undefined ? { key, path: key } : {}),
      line: Number(position[1]),
      column: Number(position[2]),
    });
  }
  return findings;
}

/** Where agent `index`'s `backend:` is written (`agent:` for a single agent), with its key. */
async function backendPosition(
  absolutePath: string,
  index: number,
): Promise<Pick<ValidationFinding, "key" | "path" | "line" | "column">> {
  const { readFile } = await import("node:fs/promises");
  const { LineCounter, parseDocument } = await import("yaml");
  const { locateKeyPath } = await import("../config/yaml-positions.js");
  const lineCounter = new LineCounter();
  const doc = parseDocument(await readFile(absolutePath, "utf8"), { lineCounter, merge: true });
  const single = !doc.has("agents") && doc.has("agent");
  const documentPath = single ? ["agent", "backend"] : ["agents", index, "backend"];
  const key = single ? "agent.backend" : `agents[${index}].backend`;
  return { key, path: key, ...locateKeyPath(doc, lineCounter, documentPath, { at: "key" }) };
}
