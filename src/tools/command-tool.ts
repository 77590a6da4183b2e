/**
 * `execute_command` (MassGen's `enable_mcp_command_line`; docs/tools.md "Commands"): a shell
 * command run with `/bin/sh -c` in the agent's workspace, with a timeout (the whole process group
 * is killed), an output cap, MassGen's allowed / blocked command patterns (regular expressions
 * matched at the start of the command) and an environment without provider keys.
 *
 * It is not a sandbox: a command can read and write whatever the user running coord can. The
 * patterns and the few always-refused commands below are guard rails, not isolation.
 */
import { spawn } from "node:child_process";
import { ToolError } from "./path-policy.js";
import type { LocalTool } from "./tool.js";
import { optionalInteger, requiredString } from "./tool-input.js";

/** Timeout of one command when the model gives none (s), and the most it may ask for. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 60;
export const MAX_COMMAND_TIMEOUT_SECONDS = 600;
/** Characters kept of each of stdout and stderr. */
export const MAX_COMMAND_OUTPUT = 20_000;

/** Refused whatever the config says (MassGen refuses these too). */
const ALWAYS_BLOCKED: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /(^|[;&|(]\s*)sudo\b/, why: "sudo is not allowed" },
  {
    pattern: /\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+(\/|~)(\s|$|\*)/,
    why: "removing / or ~ is not allowed",
  },
  { pattern: /\bmkfs(\.\w+)?\b/, why: "formatting disks is not allowed" },
  { pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, why: "fork bombs are not allowed" },
];

/** Environment variable names that hold credentials: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, …. */
const SECRET_NAME = /(API_KEY|_TOKEN|_SECRET|SECRET_KEY|ACCESS_KEY|PASSWORD)$/i;

/** Options of {@link commandTool}. */
export interface CommandToolOptions {
  /** Where commands run (the agent's workspace). */
  cwd: string;
  /** The environment to start from (coord's, with ~/.config/coord/.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Secret values the config names (`api_key:`s): variables holding one are removed too. */
  secrets?: readonly string[];
  /** `command_line_allowed_commands`: when non-empty, a command must match one. */
  allowed?: readonly string[];
  /** `command_line_blocked_commands`. */
  blocked?: readonly string[];
}

/**
 * The environment commands get: `env` without provider keys (names like `*_API_KEY`, `*_TOKEN`)
 * and without any variable whose value is one of `secrets`.
 */
export function commandEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const hidden = new Set(secrets.filter((secret) => secret.trim() !== ""));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || SECRET_NAME.test(name) || hidden.has(value)) continue;
    out[name] = value;
  }
  return out;
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
  const env = commandEnvironment(options.env, options.secrets);
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
      for (const rule of ALWAYS_BLOCKED) {
        if (rule.pattern.test(command)) throw new ToolError(`Command refused: ${rule.why}.`);
      }
      if (allowed.length > 0 && !allowed.some((rule) => rule.regex.test(command))) {
        throw new ToolError(
          `Command refused: it matches none of the allowed patterns (${allowed.map((rule) => rule.pattern).join(", ")}).`,
        );
      }
      const hit = blocked.find((rule) => rule.regex.test(command));
      if (hit)
        throw new ToolError(`Command refused: it matches the blocked pattern ${hit.pattern}.`);
      const result = await run(command, { cwd: options.cwd, env, seconds, signal: context.signal });
      const text = [
        result.timedOut
          ? `Timed out after ${seconds} s: the command was killed.`
          : `Exit code: ${result.code ?? `signal ${result.signal}`}`,
        `stdout:\n${result.stdout}`,
        `stderr:\n${result.stderr}`,
      ].join("\n");
      if (result.timedOut || result.code !== 0) throw new ToolError(text);
      return text;
    },
  };
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `command` in its own process group; kills the group on timeout or abort. */
function run(
  command: string,
  options: { cwd: string; env: Record<string, string>; seconds: number; signal: AbortSignal },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    const child = spawn("/bin/sh", ["-c", command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const stdout = capture();
    const stderr = capture();
    child.stdout.on("data", stdout.add);
    child.stderr.on("data", stderr.add);
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.seconds * 1000);
    const onAbort = () => killGroup();
    options.signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      reject(new ToolError(`could not start the command: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      if (options.signal.aborted) return reject(options.signal.reason as Error);
      resolve({ code, signal, stdout: stdout.text(), stderr: stderr.text(), timedOut });
    });
  });
}

/** Keeps the first {@link MAX_COMMAND_OUTPUT} characters of a stream and counts the rest. */
function capture(): { add: (chunk: Buffer) => void; text: () => string } {
  let kept = "";
  let dropped = 0;
  return {
    add(chunk) {
      const text = chunk.toString("utf8");
      const room = MAX_COMMAND_OUTPUT - kept.length;
      if (room >= text.length) kept += text;
      else {
        kept += text.slice(0, Math.max(0, room));
        dropped += text.length - Math.max(0, room);
      }
    },
    text: () => (dropped > 0 ? `${kept}\n… (${dropped} more characters cut)` : kept),
  };
}
