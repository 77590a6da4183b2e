/**
 * The backend registry: turns an agent's `backend` config into a {@link Backend}. Provider
 * modules are imported only when a config uses them, so `coord --help` stays fast.
 */
import type { AgentConfig } from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { Backend, FileAccess } from "./backend.js";

/** What backend factories may need from the outside world. */
export interface BackendContext {
  /** Environment variables, merged with `~/.config/coord/.env` (the environment wins). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths (a `local` model file) resolve against. */
  cwd: string;
  /**
   * The agent's workspace and what it may read (docs/tools.md), for a backend that runs its own
   * file tools (`claude_code`): they are confined to it.
   */
  files?: FileAccess;
}

/**
 * Creates the backend of one agent.
 * @param index the agent's 0-based position, for messages (`agents[1].backend`).
 * @throws ConfigError naming the agent when the backend cannot be set up (missing key or model,
 *   unknown file, a type this version does not run).
 */
export async function createBackend(
  agent: AgentConfig,
  index: number,
  context: BackendContext,
): Promise<Backend> {
  return createBackendAt(
    agent,
    { where: `agents[${index}] (${agent.id})`, path: `agents[${index}].backend` },
    context,
  );
}

/**
 * Creates a backend configured elsewhere than `agents[]` (the persona generator's).
 * @param at how messages name it (`where`) and the dotted path of its `backend` key.
 * @throws ConfigError as {@link createBackend}, naming `at`.
 */
export async function createBackendAt(
  agent: AgentConfig,
  at: { where: string; path: string },
  context: BackendContext,
): Promise<Backend> {
  try {
    return await instantiate(agent, context);
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(`${at.where}: ${error.message}`, { ...error.details, path: at.path });
    }
    throw error;
  }
}

async function instantiate(agent: AgentConfig, context: BackendContext): Promise<Backend> {
  const config = agent.backend;
  const env = { ...context.env };
  switch (config.type) {
    case "scripted": {
      const { createScriptedBackend } = await import("./scripted.js");
      return createScriptedBackend({
        steps: config.steps ?? [],
        ...(config.scripts ? { scripts: config.scripts } : {}),
        name: config.model ?? agent.id,
      });
    }
    case "openai": {
      const { createOpenAIBackend } = await import("./openai.js");
      return createOpenAIBackend(config, env);
    }
    case "claude": {
      const { createClaudeBackend } = await import("./claude.js");
      return createClaudeBackend(config, env);
    }
    case "gemini": {
      const { createGeminiBackend } = await import("./gemini.js");
      return createGeminiBackend(config, env);
    }
    case "grok": {
      const { createGrokBackend } = await import("./grok.js");
      return createGrokBackend(config, env);
    }
    case "azure_openai": {
      const { createAzureOpenAIBackend } = await import("./azure-openai.js");
      return createAzureOpenAIBackend(config, env);
    }
    case "claude_code": {
      const { createClaudeCodeBackend } = await import("./claude-code.js");
      return createClaudeCodeBackend(config, {
        env,
        cwd: context.cwd,
        ...(context.files ? { files: context.files } : {}),
      });
    }
    case "chatcompletion":
    case "zai":
    case "lmstudio":
    case "vllm":
    case "sglang":
    case "ollama": {
      const { createChatCompletionsBackend } = await import("./chat-completions.js");
      return createChatCompletionsBackend(config, env);
    }
    case "openrouter":
    case "groq":
    case "cerebras":
    case "together":
    case "fireworks":
    case "moonshot":
    case "nebius":
    case "poe":
    case "qwen": {
      const { createHostedChatBackend } = await import("./hosted-chat.js");
      return createHostedChatBackend(config, env);
    }
    case "local": {
      const { createLocalBackend } = await import("./local.js");
      return createLocalBackend(config, { cwd: context.cwd });
    }
    default: {
      // Every type is handled above (the compiler checks it); a config that bypassed the schema
      // may still get here.
      const type: string = config.type satisfies never;
      throw new ConfigError(`unknown backend type ${type}`);
    }
  }
}
