/**
 * The `claude_code` backend block read into settings (`claudeCodeSettings`), and the Claude Agent
 * SDK options of one query built from them (`queryOptions`). Keys and credentials: see
 * `./claude-code.ts`.
 */
import { isAbsolute, resolve } from "node:path";
import type { Options, Query, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { CLAUDE_CODE_PERMISSION_MODES, type BackendConfig } from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { FileAccess, ModelRequest } from "./backend.js";
import { confineHook, SHELL_TOOLS } from "./claude-code-confine.js";
import { composeSystemPrompt, workflowToolNames } from "./claude-code-request.js";

// The modes are defined once, beside the config key's schema; re-exported for claude-code.ts.
export { CLAUDE_CODE_PERMISSION_MODES };
type PermissionMode = (typeof CLAUDE_CODE_PERMISSION_MODES)[number];

/** The SDK's `query` function (injected in tests). */
export type QueryFunction = (params: {
  prompt: AsyncIterable<SDKUserMessage>;
  options?: Options;
}) => Query;

/** Where the backend runs and what it may read. */
export interface ClaudeCodeContext {
  /** Environment (merged with `~/.config/coord/.env`); passed to Claude Code as its environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** coord's working directory: the default `cwd`, and what a relative `cwd:` resolves against. */
  cwd: string;
  /** The SDK's `query`; default the real one. */
  query?: QueryFunction;
  /** The process's user id (root refuses `bypassPermissions` without `IS_SANDBOX=1`). */
  uid?: number | undefined;
  /**
   * The agent's workspace and readable folders (a run with tools, docs/tools.md): Claude Code
   * then runs in the workspace and its own tools are confined (`./claude-code-confine.ts`).
   */
  files?: FileAccess | undefined;
}

/** The settings read from the backend block (exported for tests). */
export interface ClaudeCodeSettings {
  /** Absent when the config names none: Claude Code picks its default model. */
  model?: string;
  cwd: string;
  env: Record<string, string>;
  allowedTools: string[];
  disallowedTools: string[];
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  maxThinkingTokens?: number;
  maxTurns?: number;
  /** Set when Claude Code's own tools are confined to the agent's folders. */
  files?: FileAccess;
}

/**
 * Reads and checks the `claude_code` backend block.
 * @throws ConfigError for missing credentials, a bad key type or permission mode, or
 *   `bypassPermissions` as root without `IS_SANDBOX=1`.
 */
export function claudeCodeSettings(
  config: BackendConfig,
  context: ClaudeCodeContext,
): ClaudeCodeSettings {
  const raw = config as Record<string, unknown>;
  // No `model:` (MassGen's examples leave it out): Claude Code uses its default.
  const model = nonEmpty(config.model);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(context.env)) if (value !== undefined) env[key] = value;
  const apiKey = nonEmpty(config.api_key) ?? nonEmpty(env.ANTHROPIC_API_KEY);
  if (apiKey !== undefined) env.ANTHROPIC_API_KEY = apiKey;
  else if (nonEmpty(env.CLAUDE_CODE_OAUTH_TOKEN) === undefined) {
    throw new ConfigError(
      "No credentials for Claude Code: export ANTHROPIC_API_KEY=sk-ant-… or a Claude login token " +
        "CLAUDE_CODE_OAUTH_TOKEN=… (from `claude setup-token`), or add one to ~/.config/coord/.env, " +
        "or set `api_key:` in the agent's backend config",
    );
  }
  const baseUrl = nonEmpty(config.base_url);
  if (baseUrl !== undefined) env.ANTHROPIC_BASE_URL = baseUrl.replace(/\/v1\/?$/, "");
  env.CLAUDE_CODE_MAX_RETRIES ??= "0";

  const permissionMode = optionalString(raw, "permission_mode");
  if (
    permissionMode !== undefined &&
    !(CLAUDE_CODE_PERMISSION_MODES as readonly string[]).includes(permissionMode)
  ) {
    throw new ConfigError(
      `permission_mode: \`${permissionMode}\` is not one of ${CLAUDE_CODE_PERMISSION_MODES.join(", ")}`,
    );
  }
  if (permissionMode === "bypassPermissions" && context.uid === 0 && env.IS_SANDBOX !== "1") {
    throw new ConfigError(
      "permission_mode: Claude Code refuses `bypassPermissions` when run as root: use `acceptEdits`, " +
        "run coord as another user, or export IS_SANDBOX=1 if this machine is a disposable sandbox",
    );
  }
  const cwd = optionalString(raw, "cwd");
  const maxThinkingTokens = optionalInteger(raw, "max_thinking_tokens");
  const maxTurns = optionalInteger(raw, "max_turns");
  const systemPrompt = optionalString(raw, "system_prompt");
  const appendSystemPrompt = optionalString(raw, "append_system_prompt");
  return {
    ...(model !== undefined ? { model } : {}),
    cwd:
      context.files !== undefined
        ? context.files.workspace
        : cwd === undefined
          ? context.cwd
          : isAbsolute(cwd)
            ? cwd
            : resolve(context.cwd, cwd),
    env,
    allowedTools: stringList(raw, "allowed_tools"),
    disallowedTools: stringList(raw, "disallowed_tools"),
    ...(permissionMode !== undefined ? { permissionMode: permissionMode as PermissionMode } : {}),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(appendSystemPrompt !== undefined ? { appendSystemPrompt } : {}),
    ...(maxThinkingTokens !== undefined ? { maxThinkingTokens } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(context.files !== undefined ? { files: context.files } : {}),
  };
}

/** The SDK options of one query (exported for tests). */
export function queryOptions(
  settings: ClaudeCodeSettings,
  request: ModelRequest,
  extra: Partial<Options>,
): Options {
  const env = { ...settings.env };
  if (request.maxOutputTokens !== undefined)
    env.CLAUDE_CODE_MAX_OUTPUT_TOKENS = String(request.maxOutputTokens);
  return {
    ...(settings.model !== undefined ? { model: settings.model } : {}),
    cwd: settings.cwd,
    env,
    systemPrompt: composeSystemPrompt(request.system, settings),
    allowedTools: [...settings.allowedTools, ...workflowToolNames(request.tools)],
    disallowedTools: settings.files
      ? [...new Set([...settings.disallowedTools, ...SHELL_TOOLS])]
      : settings.disallowedTools,
    ...(settings.files
      ? {
          additionalDirectories: settings.files.readRoots,
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  confineHook(settings.files, { askOnAllowed: settings.permissionMode === "plan" }),
                ],
              },
            ],
          },
        }
      : {}),
    includePartialMessages: true,
    persistSession: false,
    ...(settings.permissionMode !== undefined ? { permissionMode: settings.permissionMode } : {}),
    ...(settings.permissionMode === "bypassPermissions"
      ? { allowDangerouslySkipPermissions: true }
      : {}),
    ...(settings.maxThinkingTokens !== undefined
      ? { maxThinkingTokens: settings.maxThinkingTokens }
      : {}),
    ...(settings.maxTurns !== undefined ? { maxTurns: settings.maxTurns } : {}),
    ...extra,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === "" ? undefined : trimmed;
}

function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ConfigError(`${key}: expected a string`);
  return value;
}

function optionalInteger(raw: Record<string, unknown>, key: string): number | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${key}: expected a whole number ≥ 0`);
  }
  return value;
}

function stringList(raw: Record<string, unknown>, key: string): string[] {
  const value = raw[key];
  if (value === undefined || value === null) return [];
  if (typeof value === "string")
    return value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((entry) => typeof entry === "string")) return value;
  throw new ConfigError(`${key}: expected a list of tool names`);
}
