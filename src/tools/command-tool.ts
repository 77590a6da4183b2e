/**
 * `execute_command` (MassGen's `enable_mcp_command_line`; docs/tools.md "Commands"): a shell
 * command run with `/bin/sh -c` in the agent's workspace, inside bubblewrap (`./sandbox.ts`): the
 * filesystem read-only but for the workspace and the context paths the agent may write, a private
 * `/tmp` and `HOME`, no network unless `command_network: true`, an environment built from an
 * allow-list (`./sandbox-env.ts`), a process limit, a timeout (the whole sandbox is killed) and an
 * output cap. Where bubblewrap is missing or fails its probe, commands are refused, unless the
 * config opts out with `command_sandbox: none`. MassGen's allowed / blocked command patterns
 * (regular expressions matched at the start of the command) and a few always-refused commands
 * (`./command-guard.ts`) are guard rails on top.
 */
import { homedir } from "node:os";
import { alwaysRefused } from "./command-guard.js";
import { runCommand } from "./command-run.js";
import type { RootSpec } from "./path-policy.js";
import { ToolError } from "./path-policy.js";
import {
  findSandbox,
  SANDBOX_HOME,
  SANDBOX_TMP,
  sandboxArgs,
  type SandboxMount,
} from "./sandbox.js";
import { commandEnvironment } from "./sandbox-env.js";
import type { LocalTool } from "./tool.js";
import { optionalInteger, requiredString } from "./tool-input.js";

export { MAX_COMMAND_OUTPUT } from "./command-run.js";
export { commandEnvironment } from "./sandbox-env.js";

/** Timeout of one command when the model gives none (s), and the most it may ask for. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 60;
export const MAX_COMMAND_TIMEOUT_SECONDS = 600;
/** The most processes a sandboxed command may have at once; more kill it (a fork bomb). */
export const MAX_COMMAND_PROCESSES = 256;

/** Options of {@link commandTool}. */
export interface CommandToolOptions {
  /** Where commands run (the agent's workspace): the one folder always writable. */
  cwd: string;
  /** coord's environment (with ~/.config/coord/.env): only allow-listed variables pass. */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The agent's folders as its file tools see them: `write` roots are writable, `present-write`
   * ones while the agent presents, `read` and `protected` ones read-only, `none` ones hidden.
   */
  roots?: readonly RootSpec[];
  /** `command_line_allowed_commands`: when non-empty, a command must match one. */
  allowed?: readonly string[];
  /** `command_line_blocked_commands`. */
  blocked?: readonly string[];
  /** `command_sandbox`: `bubblewrap` (default) or `none` (no isolation, the operator's choice). */
  sandbox?: "bubblewrap" | "none";
  /** `command_network`: keep the host's network inside the sandbox (default false). */
  network?: boolean;
  /** `command_env`: variable names passed through besides the allow-list. */
  passEnv?: readonly string[];
  /** The most processes at once (default {@link MAX_COMMAND_PROCESSES}). */
  maxProcesses?: number;
}

/** A start-anchored regular expression, as MassGen's `re.match`. */
function anchored(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})`);
}

/** Creates `execute_command` for one agent. */
export function commandTool(options: CommandToolOptions): LocalTool {
  const name = "execute_command";
  const allowed = (options.allowed ?? []).map((pattern) => ({ pattern, regex: anchored(pattern) }));
  const blocked = (options.blocked ?? []).map((pattern) => ({ pattern, regex: anchored(pattern) }));
  const sandboxed = options.sandbox !== "none";
  const env = commandEnvironment(options.env, {
    home: sandboxed ? SANDBOX_HOME : options.env.HOME,
    ...(sandboxed ? { tmpdir: SANDBOX_TMP } : {}),
    passEnv: options.passEnv ?? [],
  });
  const maxProcesses = options.maxProcesses ?? MAX_COMMAND_PROCESSES;
  return {
    spec: {
      name,
      description: `Run a shell command in your workspace (/bin/sh). Gives back the exit code, stdout and stderr. Default timeout ${DEFAULT_COMMAND_TIMEOUT_SECONDS} s.`,
      inputSchema: {
        type: "object",
        properties: {
          command: { type: "string", description: "The command line, e.g. `python3 test.py`." },
          timeout_seconds: {
            type: "integer",
            minimum: 1,
            maximum: MAX_COMMAND_TIMEOUT_SECONDS,
            description: `Time limit in seconds (default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}).`,
          },
        },
        required: ["command"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const command = requiredString(name, input, "command").trim();
      const seconds = Math.min(
        optionalInteger(name, input, "timeout_seconds", 1) ?? DEFAULT_COMMAND_TIMEOUT_SECONDS,
        MAX_COMMAND_TIMEOUT_SECONDS,
      );
      if (command === "") throw new ToolError(`${name}: the command is empty`);
      const refused = alwaysRefused(command);
      if (refused !== undefined) throw new ToolError(`Command refused: ${refused}.`);
      if (allowed.length > 0 && !allowed.some((rule) => rule.regex.test(command))) {
        throw new ToolError(
          `Command refused: it matches none of the allowed patterns (${allowed.map((rule) => rule.pattern).join(", ")}).`,
        );
      }
      const hit = blocked.find((rule) => rule.regex.test(command));
      if (hit)
        throw new ToolError(`Command refused: it matches the blocked pattern ${hit.pattern}.`);
      let argv = ["/bin/sh", "-c", command];
      if (sandboxed) {
        const probe = await findSandbox(options.env);
        if (!probe.ok) {
          throw new ToolError(
            `Command refused: no sandbox: ${probe.reason}. Install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap), or set command_sandbox: none on this agent to run commands without isolation (docs/tools.md "Commands").`,
          );
        }
        const mounts = sandboxMounts(options.roots ?? [], context.presenting);
        argv = [
          probe.bwrap,
          ...sandboxArgs({
            workspace: options.cwd,
            mounts,
            homes: [...new Set([options.env.HOME ?? homedir(), homedir()])],
            network: options.network === true,
            command: argv,
            infoFd: 3,
          }),
        ];
      }
      const result = await runCommand({
        argv,
        cwd: options.cwd,
        env,
        seconds,
        signal: context.signal,
        ...(sandboxed ? { maxProcesses } : {}),
      });
      const text = [
        result.tooManyProcesses
          ? `Killed: the command had more than ${maxProcesses} processes at once.`
          : result.timedOut
            ? `Timed out after ${seconds} s: the command was killed.`
            : `Exit code: ${result.code ?? `signal ${result.signal}`}`,
        `stdout:\n${result.stdout}`,
        `stderr:\n${result.stderr}`,
      ].join("\n");
      if (result.timedOut || result.tooManyProcesses || result.code !== 0)
        throw new ToolError(text);
      return text;
    },
  };
}

/** The agent's roots as sandbox mounts (see {@link CommandToolOptions.roots}). */
function sandboxMounts(roots: readonly RootSpec[], presenting: boolean): SandboxMount[] {
  return roots.map((root) => ({
    path: root.path,
    access:
      root.access === "write" || (root.access === "present-write" && presenting)
        ? "rw"
        : root.access === "none"
          ? "hidden"
          : "ro",
  }));
}
