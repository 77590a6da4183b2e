/**
 * Claude Code's own tools confined to an agent's folders (docs/tools.md "Backends"): when the
 * runner gives the `claude_code` backend a {@link FileAccess}, Claude Code runs in the agent's
 * workspace, may read the other folders it has (`additionalDirectories`), and a `PreToolUse` hook
 * (which runs in every permission mode, `bypassPermissions` included) judges each call of its
 * file tools with the same path policy as coord's file tools:
 *
 * - `Read`, `Glob`, `Grep`, `LS`: the path (or an absolute glob's folder) must be readable;
 * - `Write`, `Edit`, `MultiEdit`, `NotebookEdit`: the file must be writable without presenting, so
 *   in practice inside the workspace; the presenter writes to `write` context paths with coord's
 *   `write_file` / `edit_file` (offered as `mcp__coord__…`), which know it is presenting;
 * - `Bash` and the other shell tools are refused: a shell cannot be confined to folders; commands
 *   run through coord's `execute_command` when `enable_mcp_command_line: true`.
 *
 * A file tool call the policy allows is allowed without asking (a run has nobody to ask), except in
 * `plan` mode, which keeps deciding itself. Every other tool (coord's own `mcp__coord__…` tools,
 * web search, todo lists) is left to Claude Code's permission mode.
 */
import type { HookCallback } from "@anthropic-ai/claude-agent-sdk";
import type { FileAccess } from "./backend.js";

/** Claude Code's shell tools: refused when the agent is confined. */
export const SHELL_TOOLS = ["Bash", "BashOutput", "KillShell", "KillBash", "Monitor"] as const;

const READ_TOOLS: Record<string, string> = {
  Read: "file_path",
  Glob: "path",
  Grep: "path",
  LS: "path",
};
const WRITE_TOOLS: Record<string, string> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/** True for Claude Code's tools that read or write files (judged by the path policy). */
export function isFileTool(toolName: string): boolean {
  return READ_TOOLS[toolName] !== undefined || WRITE_TOOLS[toolName] !== undefined;
}

/**
 * Why a call of one of Claude Code's tools is refused, or undefined when it may run.
 * @param input the tool's input as Claude Code sent it.
 */
export async function confinedRefusal(
  files: FileAccess,
  toolName: string,
  input: unknown,
): Promise<string | undefined> {
  if ((SHELL_TOOLS as readonly string[]).includes(toolName)) {
    return `${toolName} is not available in coord: a shell cannot be kept inside your folders. Use the file tools, or coord's execute_command when the config enables it (enable_mcp_command_line: true).`;
  }
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  const readKey = READ_TOOLS[toolName];
  if (readKey !== undefined) {
    const paths: string[] = [];
    if (typeof fields[readKey] === "string" && fields[readKey] !== "") paths.push(fields[readKey]);
    if (toolName === "Glob" && typeof fields.pattern === "string" && fields.pattern.startsWith("/"))
      paths.push(globFolder(fields.pattern));
    for (const path of paths) {
      const refusal = await files.refusal(path, "read");
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  }
  const writeKey = WRITE_TOOLS[toolName];
  if (writeKey !== undefined) {
    const path = fields[writeKey];
    if (typeof path !== "string" || path === "") return `${toolName}: give the file's path`;
    const refusal = await files.refusal(path, "write");
    // The presenter may write to `write` context paths, but only through coord's tools.
    return refusal?.includes("only the agent presenting") === true
      ? `${refusal}; when you present the final answer, write there with coord's write_file or edit_file tools`
      : refusal;
  }
  return undefined;
}

/** The folder part of an absolute glob: everything before the first segment with a wildcard. */
function globFolder(pattern: string): string {
  const segments = pattern.split("/");
  const first = segments.findIndex((segment) => /[*?[\]{}]/.test(segment));
  const folder = (first < 0 ? segments : segments.slice(0, first)).join("/");
  return folder === "" ? "/" : folder;
}

/**
 * The `PreToolUse` hook: denies the calls {@link confinedRefusal} refuses, allows the file tool
 * calls it accepts (unless `askOnAllowed`, for `plan` mode).
 */
export function confineHook(
  files: FileAccess,
  options: { askOnAllowed?: boolean } = {},
): HookCallback {
  return async (input) => {
    if (input.hook_event_name !== "PreToolUse") return { continue: true };
    const refusal = await confinedRefusal(files, input.tool_name, input.tool_input);
    if (refusal === undefined) {
      if (options.askOnAllowed === true || !isFileTool(input.tool_name)) return { continue: true };
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          permissionDecisionReason: "inside the agent's folders",
        },
      };
    }
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: refusal,
      },
    };
  };
}
