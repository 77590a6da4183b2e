import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { commandEnvironment, commandTool, MAX_COMMAND_OUTPUT } from "./command-tool.js";
import type { ToolCallContext } from "./tool.js";

const context: ToolCallContext = {
  agentId: "a",
  presenting: false,
  signal: new AbortController().signal,
};

const ENV = {
  PATH: process.env.PATH,
  HOME: "/home/someone",
  LC_ALL: "C.UTF-8",
  OPENAI_API_KEY: "sk-test-openai",
  ANTHROPIC_AUTH_TOKEN: "tok-1",
  GITHUB_TOKEN: "ghp_x",
  GH_PAT: "ghp_pat",
  DATABASE_URL: "postgres://u:pw-db@h/db",
  MY_PROVIDER_KEY_VALUE: "sk-config-key",
  GREETING: "hello",
  PROJECT_MODE: "dev",
};

async function run(
  input: Record<string, unknown>,
  options: {
    allowed?: string[];
    blocked?: string[];
    signal?: AbortSignal;
    passEnv?: string[];
    /** The workspace; default a new temp directory. */
    cwd?: string;
  } = {},
): Promise<{ ok: boolean; text: string; cwd: string }> {
  const cwd = options.cwd ?? (await mkdtemp(join(tmpdir(), "coord-cmd-")));
  const tool = commandTool({
    cwd,
    env: ENV,
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
    ...(options.allowed ? { allowed: options.allowed } : {}),
    ...(options.blocked ? { blocked: options.blocked } : {}),
  });
  try {
    const text = await tool.execute(input, {
      ...context,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { ok: true, text, cwd };
  } catch (error) {
    return { ok: false, text: (error as Error).message, cwd };
  }
}

describe("execute_command", () => {
  test("captures stdout, stderr and the exit code; runs in the workspace", async () => {
    const result = await run({ command: "echo out; echo err >&2; pwd; echo made > f.txt" });
    expect(result.ok).toBe(true);
    expect(result.text).toBe(`Exit code: 0\nstdout:\nout\n${result.cwd}\n\nstderr:\nerr\n`);
    expect(await readFile(join(result.cwd, "f.txt"), "utf8")).toBe("made\n");
    const failed = await run({ command: "echo partial; exit 3" });
    expect(failed).toMatchObject({
      ok: false,
      text: "Exit code: 3\nstdout:\npartial\n\nstderr:\n",
    });
  });

  test("enforces the timeout by killing the command", async () => {
    const result = await run({ command: "echo started; sleep 30; echo never", timeout_seconds: 1 });
    expect(result.ok).toBe(false);
    expect(result.text).toBe(
      "Timed out after 1 s: the command was killed.\nstdout:\nstarted\n\nstderr:\n",
    );
  });

  test("caps the output", async () => {
    const result = await run({
      command: `head -c ${MAX_COMMAND_OUTPUT + 500} /dev/zero | tr '\\0' x`,
    });
    expect(result.text).toContain(`x\n… (500 more characters cut)`);
  });

  test("refuses blocked commands, commands outside the allowed list, and sudo", async () => {
    expect(await run({ command: "rm -rf build" }, { blocked: ["rm .*"] })).toMatchObject({
      ok: false,
      text: "Command refused: it matches the blocked pattern rm .*.",
    });
    expect(await run({ command: "ls" }, { allowed: ["python3? .*", "pytest"] })).toMatchObject({
      ok: false,
      text: "Command refused: it matches none of the allowed patterns (python3? .*, pytest).",
    });
    expect(
      (await run({ command: "python3 -c 'print(1)'" }, { allowed: ["python3? .*"] })).text,
    ).toContain("Exit code: 0");
    expect((await run({ command: "sudo ls" })).text).toBe("Command refused: sudo is not allowed.");
  });

  test("its environment is an allow-list: no key, token or password passes", async () => {
    const result = await run({ command: "env" }, { passEnv: ["PROJECT_MODE"] });
    expect(result.text).toContain("LC_ALL=C.UTF-8");
    expect(result.text).toContain("PROJECT_MODE=dev");
    for (const secret of [
      "sk-test-openai",
      "tok-1",
      "ghp_x",
      "ghp_pat",
      "pw-db",
      "sk-config-key",
    ]) {
      expect(result.text).not.toContain(secret);
    }
    // Named variables only: an unknown name (GREETING) does not pass either.
    expect(result.text).not.toContain("GREETING");
    expect(commandEnvironment(ENV, { home: "/tmp/home", tmpdir: "/tmp" })).toEqual({
      PATH: process.env.PATH,
      LC_ALL: "C.UTF-8",
      HOME: "/tmp/home",
      TMPDIR: "/tmp",
    });
  });

  test("an abort kills the command", async () => {
    const controller = new AbortController();
    const cwd = await mkdtemp(join(tmpdir(), "coord-cmd-"));
    const result = run({ command: "echo > started; sleep 30" }, { signal: controller.signal, cwd });
    // Aborted once the command runs (a condition, not a guess at how long it takes to start).
    await vi.waitFor(() => expect(existsSync(join(cwd, "started"))).toBe(true), {
      timeout: 5000,
      interval: 5,
    });
    controller.abort(new Error("round stopped"));
    expect(await result).toMatchObject({ ok: false, text: "round stopped" });
  });
});
