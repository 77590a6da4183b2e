/**
 * The backend types (`agents[].backend.type`, `--backend`). Kept apart from the zod schema so
 * the CLI can list them in `--help` without loading zod.
 */
/** Backend types accepted in `agents[].backend.type` and by `--backend`. */
export const BACKEND_TYPES = [
  "openai",
  "claude",
  "gemini",
  "grok",
  "azure_openai",
  "claude_code",
  "zai",
  "chatcompletion",
  "lmstudio",
  "vllm",
  "sglang",
  "ollama",
  "openrouter",
  "groq",
  "cerebras",
  "together",
  "fireworks",
  "moonshot",
  "nebius",
  "poe",
  "qwen",
  "local",
  "scripted",
] as const;
export type BackendType = (typeof BACKEND_TYPES)[number];
