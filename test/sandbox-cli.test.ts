/**
 * The command sandbox through the built CLI (docs/tools.md "Commands"):
 * a scripted agent with `execute_command` under `--cwd-context ro` cannot write into the working
 * directory, and what its command sees of the environment and of `~/.config/coord/.env` (written
 * to its workspace, read from disk here, so no log redaction can hide a leak) holds no secret.
 * A MassGen config with `command_line_execution_mode: docker` passes `--validate` and runs its
 * commands in the sandbox, with a warning that names the difference.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

/** bwrap is installed on CI (.ci/run); elsewhere these tests say why they are skipped. */
const HAS_BWRAP = existsSync("/usr/bin/bwrap") && process.platform === "linux";

const SECRETS = {
  OPENAI_API_KEY: "sk-openai-cli-parent",
  GH_PAT: "ghp_cli_parent_pat",
  DATABASE_URL: "postgres://app:cli-db-password@db/app",
};
const ENV_FILE_KEY = "sk-ant-cli-from-env-file";

function team(options: { cwd: string; home: string; mode?: string }): string {
  const attack = [
    `echo pwned > ${options.cwd}/pwned.txt`,
    "env > seen.txt",
    `cat ${options.home}/.config/coord/.env >> seen.txt 2>&1`,
    "echo done >> seen.txt",
  ].join("; ");
  return `
agents:
  - id: solo
    backend:
      type: scripted
      cwd: ws
      enable_mcp_command_line: true
${options.mode ? `      command_line_execution_mode: ${options.mode}\n` : ""}      steps:
        - tool_calls: [{ name: execute_command, input: { command: ${JSON.stringify(attack)} } }]
        - answer: "Tried."
`;
}

/** A home outside /tmp (which the sandbox replaces), holding coord's .env with a key. */
async function homeWithEnvFile(): Promise<string> {
  await mkdir("/var/tmp", { recursive: true });
  const home = await mkdtemp(join("/var/tmp", "coord-cli-home-"));
  await mkdir(join(home, ".config", "coord"), { recursive: true });
  await writeFile(join(home, ".config", "coord", ".env"), `ANTHROPIC_API_KEY=${ENV_FILE_KEY}\n`);
  return home;
}

/** The one workspace file the command wrote, read from disk. */
async function seen(cwd: string): Promise<string> {
  const runs = join(cwd, ".coord", "workspaces");
  const [run] = await readdir(runs);
  return readFile(join(runs, run!, "ws", "seen.txt"), "utf8");
}

describe.skipIf(!HAS_BWRAP)("the command sandbox in a run (bwrap is not installed here)", () => {
  test(
    "--cwd-context ro: the command cannot write there, and sees no secret",
    { timeout: 90_000 },
    async () => {
      const box = await makeSandbox();
      const home = await homeWithEnvFile();
      await writeFile(join(box.cwd, "team.yaml"), team({ cwd: box.cwd, home }));
      const result = await runCli(
        ["--config", "team.yaml", "--cwd-context", "ro", "--no-display", "Try it"],
        { cwd: box.cwd, home, env: SECRETS, timeoutMs: 80_000 },
      );
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("Read-only file system");
      expect(existsSync(join(box.cwd, "pwned.txt"))).toBe(false);
      const output = await seen(box.cwd);
      expect(output).toContain("done");
      expect(output).toContain(".config/coord/.env: No such file or directory");
      for (const secret of [...Object.values(SECRETS), ENV_FILE_KEY]) {
        expect(output).not.toContain(secret);
      }
      const events = await readLog(await onlyAttemptDir(box.cwd), "events.jsonl");
      expect(events).toContain("Read-only file system");
    },
  );

  test(
    "command_line_execution_mode: docker validates, warns, and runs in the sandbox",
    { timeout: 90_000 },
    async () => {
      const box = await makeSandbox();
      const home = await homeWithEnvFile();
      await writeFile(join(box.cwd, "team.yaml"), team({ cwd: box.cwd, home, mode: "docker" }));
      const validated = await runCli(["--config", "team.yaml", "--validate"], box);
      expect(validated.code).toBe(0);
      const result = await runCli(["--config", "team.yaml", "Try it"], {
        cwd: box.cwd,
        home,
        env: SECRETS,
        timeoutMs: 80_000,
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        "agents[0].backend.command_line_execution_mode: docker: commands run in coord's bubblewrap sandbox, not in a container: no image (the host's programs), the host's filesystem read-only except the workspace",
      );
      expect(existsSync(join(box.cwd, "pwned.txt"))).toBe(false);
      expect(await seen(box.cwd)).not.toContain(SECRETS.GH_PAT);
    },
  );
});
