/**
 * The habits of `llm`, `claude -p`, `gemini -p` and `aichat`, on the built CLI:
 * short flags, `-c/--continue` for this directory's last session, `--json-events` (the event
 * stream as NDJSON on stdout while the run goes on), every error as JSON under `--json`,
 * `XDG_CONFIG_HOME`, and completion of option values.
 */
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

/** One scripted agent answering `answer`; it fails loudly unless its prompt contains `expected`. */
function scriptedConfig(answer: string, expected?: string): string {
  return [
    "agents:",
    "  - id: solo",
    "    backend:",
    "      type: scripted",
    "      steps:",
    `        - answer: ${JSON.stringify(answer)}`,
    ...(expected ? [`          expect_prompt_contains: ${JSON.stringify(expected)}`] : []),
  ].join("\n");
}

describe("short flags", () => {
  test("-b -m -s -q -o are --backend --model --system-message --quick --output-file", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["-b", "local", "-s", "Be brief", "-q", "-o", "out/answer.txt", "--no-display", "Hi"],
      sandbox,
    );
    expect(result.stderr).not.toMatch(/unknown option/);
    expect(result.code).toBe(0);
    const answer = await readFile(join(sandbox.cwd, "out", "answer.txt"), "utf8");
    expect(answer.trim()).not.toBe("");
    expect(result.stdout.trim()).toBe(answer.trim());
    const metadata = await readLog(await onlyAttemptDir(sandbox.cwd), "execution_metadata.yaml");
    expect(metadata).toMatch(/system_message: Be brief/);
    expect(metadata).toMatch(/type: local/);
    // -m names the model: a missing file is reported by its name.
    const missing = await runCli(["-b", "local", "-m", "./none.gguf", "Hi"], sandbox);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/none\.gguf does not exist/);
  });

  test("--help shows each short flag beside its long one", async () => {
    const sandbox = await makeSandbox();
    const help = await runCli(["--help"], sandbox);
    for (const pair of [
      "-b, --backend",
      "-m, --model",
      "-s, --system-message",
      "-q, --quick",
      "-o, --output-file",
      "-c, --continue",
    ])
      expect(help.stdout).toContain(pair);
  });
});

describe("-c/--continue", () => {
  test("continues this directory's last session: its turns are the history", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "first.yaml"), scriptedConfig("Paris."));
    await writeFile(
      join(sandbox.cwd, "second.yaml"),
      scriptedConfig("Paris, in French too.", "Capital of France?"),
    );
    const first = await runCli(["--config", "first.yaml", "--json", "Capital of France?"], sandbox);
    expect(first.code).toBe(0);
    const firstSession = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    // A later session in another directory is not this directory's.
    const elsewhere = join(sandbox.cwd, "..", "elsewhere");
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, "team.yaml"), scriptedConfig("Other."));
    const other = await runCli(["--config", "team.yaml", "--json", "Other question?"], {
      ...sandbox,
      cwd: elsewhere,
    });
    expect(other.code).toBe(0);

    const second = await runCli(
      ["--config", "second.yaml", "-c", "--json", "And in French?"],
      sandbox,
    );
    expect(second.stderr).not.toMatch(/expect_prompt_contains/);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      session_id: firstSession,
      answer: "Paris, in French too.",
    });
  });

  test("without a session in this directory, or beside --session-id, it is refused", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), scriptedConfig("Seen."));
    const none = await runCli(["--config", "team.yaml", "--continue", "Hi"], sandbox);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/--continue: no finished session was started in/);
    const both = await runCli(
      ["--config", "team.yaml", "-c", "--session-id", "session_1", "Hi"],
      sandbox,
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/--continue and --session-id cannot be combined/);
  });
});

describe("--json-events", () => {
  test("stdout is the run's events.jsonl, line for line, and nothing else", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), scriptedConfig("Seen."));
    const result = await runCli(["--config", "team.yaml", "--json-events", "Hi"], sandbox);
    expect(result.code).toBe(0);
    const events = await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl");
    expect(result.stdout).toBe(events);
    const types = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("run-end");
    expect(types).toContain("final-answer");
  });

  test("a key the model streams is redacted in the stream as in the log", async () => {
    const sandbox = await makeSandbox();
    const key = "sk-test-0123456789abcdefXYZ";
    await writeFile(join(sandbox.cwd, "team.yaml"), scriptedConfig(`The key is ${key}.`));
    const result = await runCli(["--config", "team.yaml", "--json-events", "Hi"], {
      ...sandbox,
      env: { OPENAI_API_KEY: key },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).toContain("<redacted>");
  });

  test("beside --json, --automation or --web, or without a question, it is refused", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), scriptedConfig("Seen."));
    for (const flag of ["--json", "--automation", "--web"]) {
      const result = await runCli(["--config", "team.yaml", "--json-events", flag, "Hi"], sandbox);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(
        `--json-events and ${flag} cannot be combined`,
      );
    }
    const none = await runCli(["--config", "team.yaml", "--json-events"], sandbox);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/--json-events needs a question/);
  });
});

describe("errors as JSON under --json", () => {
  test("a usage error and a config error are one JSON object on stdout, same exit code", async () => {
    const sandbox = await makeSandbox();
    const unknown = await runCli(["--json", "--bogus", "Hi"], sandbox);
    expect(unknown.code).toBe(1);
    // stderr keeps the line a person reads.
    expect(unknown.stderr).toBe("coord: error: unknown option '--bogus'\n");
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: { message: "unknown option '--bogus'", code: "usage", exit_code: 1 },
    });

    await writeFile(join(sandbox.cwd, "bad.yaml"), "agents:\n  - id: a\n    backend: [1\n");
    const bad = await runCli(["--config", "bad.yaml", "--json", "Hi"], sandbox);
    expect(bad.code).toBe(1);
    const error = (JSON.parse(bad.stdout) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: "config", exit_code: 1 });
    expect(error.file).toBe(join(sandbox.cwd, "bad.yaml"));
    expect(typeof error.line).toBe("number");

    const noQuestion = await runCli(["--json"], sandbox);
    expect(noQuestion.code).toBe(1);
    expect(JSON.parse(noQuestion.stdout)).toMatchObject({ error: { exit_code: 1 } });
  });
});

describe("XDG_CONFIG_HOME", () => {
  /** A scripted config answering `answer` (`${VAR}` is read from the environment or .env). */
  const answering = (answer: string) => scriptedConfig(answer);

  test("$XDG_CONFIG_HOME/coord holds config.yaml and .env when set; else ~/.config/coord", async () => {
    const sandbox = await makeSandbox();
    const xdg = join(sandbox.home, "..", "xdg");
    await mkdir(join(xdg, "coord"), { recursive: true });
    await mkdir(join(sandbox.home, ".config", "coord"), { recursive: true });
    await writeFile(join(xdg, "coord", "config.yaml"), answering("${COORD_TEST_WORD}"));
    await writeFile(join(xdg, "coord", ".env"), "COORD_TEST_WORD=from-xdg\n");
    await writeFile(join(sandbox.home, ".config", "coord", "config.yaml"), answering("from home"));

    const set = await runCli(["--no-display", "Hi"], { ...sandbox, env: { XDG_CONFIG_HOME: xdg } });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe("from-xdg\n");
    const unset = await runCli(["--no-display", "Hi"], sandbox);
    expect(unset.stdout).toBe("from home\n");
    // The XDG rule: a relative XDG_CONFIG_HOME is ignored.
    const relative = await runCli(["--no-display", "Hi"], {
      ...sandbox,
      env: { XDG_CONFIG_HOME: "xdg" },
    });
    expect(relative.stdout).toBe("from home\n");
  });
});

describe("completion of option values", () => {
  test("bash completes --backend/-b, --coordination-mode and @examples/ after --config", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), scriptedConfig("Seen."));
    const complete = (words: string) =>
      `COMP_WORDS=(coord ${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _coord; echo "\${COMPREPLY[*]}"`;
    const result = await runCli(["completion", "bash"], sandbox);
    expect(result.code).toBe(0);
    await writeFile(join(sandbox.cwd, "coord.bash"), result.stdout);
    const bash = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        "bash",
        [
          "-c",
          [
            "source ./coord.bash",
            complete("--backend op"),
            complete("-b cla"),
            complete('--coordination-mode ""'),
            complete("--config @examples/three"),
            complete("--config te"),
          ].join("\n"),
        ],
        { cwd: sandbox.cwd, env: { PATH: process.env.PATH ?? "", HOME: sandbox.home } },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("close", () => resolve({ stdout, stderr }));
    });
    expect(bash.stderr).toBe("");
    const lines = bash.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "openai openrouter",
      "claude claude_code",
      "voting decomposition",
      "@examples/three_agents",
      "team.yaml",
    ]);
  });

  test("fish names the values of --backend and the examples of --config", async () => {
    const sandbox = await makeSandbox();
    const fish = await runCli(["completion", "fish"], sandbox);
    expect(fish.stdout).toMatch(/-l backend -s b -x -a '[^']*\bclaude_code\b[^']*'/);
    expect(fish.stdout).toMatch(/-l coordination-mode -x -a 'voting decomposition'/);
    expect(fish.stdout).toMatch(/-l config -r -a '[^']*@examples\/three_agents\b/);
  });
});
