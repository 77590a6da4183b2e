/**
 * The lines a command writes at the head of a run's `coord_debug.log` (`--debug`, spec §4.1;
 * docs/logs.md "The debug log"): coord and the arguments, the config and where it came from, each
 * agent's backend, model, base URL and where its API key comes from (the variable's name and
 * whether it is set, never its value), the mode, the session. The log writer stamps each line
 * with the time it writes it and redacts it (src/redact.ts).
 */
import { join, resolve, sep } from "node:path";
import { descriptorOf, PROVIDERS } from "../config/index.js";
import type { PreparedRun } from "./prepare-run.js";
import { redactCliArgs } from "../redact.js";

/** What the header says. */
export interface DebugHeaderInfo {
  prepared: Pick<PreparedRun, "config" | "configPath" | "env" | "mode" | "agentIndexes">;
  cwd: string;
  home: string;
  version: string;
  argv: readonly string[];
  /** The memory session and this turn's number in it. */
  session?: { id: string; continued: boolean; turn: number };
}

/** The header lines, oldest concern first; no secret values (keys are named, not shown). */
export function debugHeaderLines(info: DebugHeaderInfo): string[] {
  const { prepared } = info;
  const { config, env } = prepared;
  const lines = [
    `coord ${info.version} (node ${process.version}, ${process.platform}); cwd ${info.cwd}`,
    `args: ${redactCliArgs(info.argv).join(" ") || "(none)"}`,
    `config: ${configSource(info)}`,
  ];
  config.agents.forEach((agent, index) => {
    const { backend } = agent;
    const taking = prepared.agentIndexes.includes(index) ? "" : " (not taking part)";
    lines.push(
      `agent ${agent.id}${taking}: backend ${backend.type}, model ${backend.model ?? "(backend default)"}, base_url ${backend.base_url ?? "(provider default)"}, API key ${keySource(backend, env)}`,
    );
  });
  lines.push(
    `mode ${prepared.mode}; orchestrator timeout ${config.timeout_settings.orchestrator_timeout_seconds} s; logging ${config.ui.logging_enabled ? "on" : "off"}`,
  );
  if (info.session) {
    const { id, continued, turn } = info.session;
    lines.push(
      `session ${id}: ${continued ? `continued, turn ${turn} (${turn - 1} earlier)` : `new, turn ${turn}`}`,
    );
  }
  return lines;
}

/** Where the config came from: the file and how it was found, or quick setup. */
function configSource(info: DebugHeaderInfo): string {
  const path = info.prepared.configPath;
  if (path === undefined) return "quick setup from the command line (no config file)";
  const flag = configFlagOf(info.argv);
  if (flag !== undefined) return `${path} (--config ${flag})`;
  const project = resolve(info.cwd, ".coord", "config.yaml");
  if (resolve(path) === project)
    return `${path} (found: .coord/config.yaml of the working directory)`;
  const xdg = info.prepared.env.XDG_CONFIG_HOME;
  const globalDirs = [...(xdg ? [join(xdg, "coord")] : []), join(info.home, ".config", "coord")];
  if (globalDirs.some((dir) => resolve(path).startsWith(resolve(dir) + sep)))
    return `${path} (found: the user's global config)`;
  return info.argv.includes("--select") ? `${path} (chosen with --select)` : `${path} (found)`;
}

/** `api_key in the config (redacted)`, `from $OPENAI_API_KEY (set)`, `… (not set)`, or none. */
function keySource(
  backend: { type: string; api_key?: string | undefined; base_url?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (backend.api_key !== undefined && backend.api_key !== "")
    return "api_key in the config (redacted)";
  // A provider served by another backend (OpenRouter by chatcompletion) is known by its URL;
  // any other type by its descriptor's key variables.
  const provider = PROVIDERS.find(
    (candidate) =>
      candidate.backend === backend.type &&
      candidate.baseUrl !== undefined &&
      candidate.baseUrl === backend.base_url,
  );
  const keyVariables = provider?.keyVariables ?? descriptorOf(backend.type)?.keyVariables ?? [];
  if (keyVariables.length === 0) return "none set in the config (this backend may need none)";
  const set = keyVariables.find((name) => (env[name] ?? "") !== "");
  return set !== undefined ? `from $${set} (set)` : `$${keyVariables.join(" or $")} (not set)`;
}

/** The value of `--config X` / `--config=X` in the arguments, if given. */
function configFlagOf(argv: readonly string[]): string | undefined {
  for (const [index, arg] of argv.entries()) {
    if (arg === "--config") return argv[index + 1];
    if (arg.startsWith("--config=")) return arg.slice("--config=".length);
  }
  return undefined;
}

/** Writes the header lines to the run's debug log; nothing without a writer (`--no-logs`). */
export function writeDebugHeader(
  writer: { debug(message: string): void } | undefined,
  info: DebugHeaderInfo,
): void {
  if (writer === undefined) return;
  for (const line of debugHeaderLines(info)) writer.debug(line);
}
