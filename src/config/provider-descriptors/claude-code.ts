/** `claude_code`: the Claude Code agent SDK (`src/backends/claude-code.ts`); without `model:` Claude Code's default. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const claudeCode = defineProvider({
  type: "claude_code",
  label: "Claude Code",
  implementation: "claude_code",
  keyVariables: ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"],
  baseUrlVariable: "ANTHROPIC_BASE_URL",
  generationParameters: ["max_tokens"],
  capabilities: { ...NO_CAPABILITIES },
  price: { kind: "list", provider: "anthropic" },
  tracing: { providerName: "anthropic" },
});
