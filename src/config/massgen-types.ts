/**
 * MassGen backend types coord does not run, each refused with one line saying what it is and what
 * to use instead.
 */

/** Why a MassGen backend type does not run in coord, and what to write instead. */
const MASSGEN_ONLY_TYPES: Readonly<Record<string, string>> = {
  ag2: "`ag2` is AG2 (AutoGen), a Python framework coord cannot run: give the agent a provider type with the model of its agent_config.llm_config (type: openai, claude, gemini, …), and enable_mcp_command_line: true for code execution",
  codex:
    "`codex` runs OpenAI's Codex CLI, which coord does not drive: use type: openai with the same model, or type: claude_code for a coding agent",
  gemini_cli:
    "`gemini_cli` runs Google's Gemini CLI, which coord does not drive: use type: gemini with the same model",
  antigravity_cli:
    "`antigravity_cli` runs Google's agy CLI, which coord does not drive: use type: gemini with the same model",
  inference: "`inference` is MassGen's vLLM/SGLang backend: use type: vllm or type: sglang",
  nvidia_nim:
    "`nvidia_nim` is not a coord type: use type: chatcompletion with base_url: https://integrate.api.nvidia.com/v1 and api_key: ${NGC_API_KEY}",
  external: "`external` loads a Python agent class, which coord cannot run: use a provider type",
};

/** The refusal for a MassGen-only backend type, or undefined when `type` is not one. */
export function massgenOnlyTypeMessage(type: unknown): string | undefined {
  return typeof type === "string" && Object.hasOwn(MASSGEN_ONLY_TYPES, type)
    ? MASSGEN_ONLY_TYPES[type]
    : undefined;
}
