/**
 * The habits of the best LLM CLIs, on the built CLI: piped text as the
 * question's context, `-` for the question on stdin, `--json` with the run's result, NO_COLOR and
 * `--no-color` under a pseudo-terminal, `--single-agent` never swallowing a question, completion
 * scripts that bash loads.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { spawn as spawnPty } from "@lydell/node-pty";
import { describe, expect, test } from "vitest";
import { CLI, makeSandbox, runCli, type CliResult } from "./support/cli.js";

/** One scripted agent that fails loudly unless its prompt contains `expected`. */
function expectingConfig(expected: string): string {
  return [
    "agents:",
    "  - id: solo",
    "    backend:",
    "      type: scripted",
    "      steps:",
    `        - answer: "Seen."`,
    `          expect_prompt_contains: ${JSON.stringify(expected)}`,
  ].join("\n");
}

/** Runs `sh -c script` in `cwd` (a real pipe into coord, as a user's shell makes one). */
function shell(script: string, sandbox: { cwd: string; home: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script], {
      cwd: sandbox.cwd,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: sandbox.home,
        COORD: `${process.execPath} ${CLI}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("the question from stdin", () => {
  test("piped text beside a question reaches the agents as its context", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "notes.md"), "Line two of the notes.\n");
    await writeFile(join(sandbox.cwd, "team.yaml"), expectingConfig("Line two of the notes."));
    const result = await shell(
      'cat notes.md | $COORD --config team.yaml --no-display "Summarize"',
      sandbox,
    );
    expect(result.stderr).not.toMatch(/expect_prompt_contains/);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Seen.\n");
  });

  test("`-` reads the question from stdin; it is never the question itself", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), expectingConfig("Why is the sky blue?"));
    const result = await shell(
      'echo "Why is the sky blue?" | $COORD --config team.yaml --json -',
      sandbox,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      question: "Why is the sky blue?",
      answer: "Seen.",
    });
    const empty = await shell("printf '' | $COORD --config team.yaml -", sandbox);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/coord -: stdin was empty/);
  });
});

describe("--json", () => {
  test("prints one JSON object with the run's result and nothing else on stdout", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/scripted_team", "--json", "What is 2 + 2?"],
      sandbox,
    );
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      status: "completed",
      exit_code: 0,
      answer: "2 + 2 = 4.",
      mode: "voting",
      winner: { agent_id: "alice", votes: 3, basis: "votes" },
      usage: { model_calls: 7 },
    });
    expect(parsed.votes).toHaveLength(3);
    expect((parsed.agents as { id: string }[]).map((agent) => agent.id)).toEqual([
      "alice",
      "bob",
      "carol",
    ]);
    expect(parsed.log_dir).toMatch(/agent_outputs\/log_.*attempt_1$/);
    expect(parsed.session_id).toMatch(/^session_/);
    // No progress lines: only warnings could reach stderr.
    expect(result.stderr).not.toMatch(/\[orchestrator\]|Winner:/);
  });

  test("a failed run is a JSON object too, with the error and the exit code", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      [
        "agents:",
        "  - id: solo",
        "    backend:",
        "      type: scripted",
        "      steps:",
        "        - error: {status: 401, message: bad key}",
      ].join("\n"),
    );
    const result = await runCli(["--config", "team.yaml", "--json", "q?"], sandbox);
    expect(result.code).toBe(2);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ status: "failed", exit_code: 2, answer: null });
    expect(parsed.error).toMatch(/^every agent failed — solo: /);
  });

  test("goes with a question only", async () => {
    const sandbox = await makeSandbox();
    const web = await runCli(
      ["--config", "@examples/scripted_team", "--json", "--automation", "q?"],
      sandbox,
    );
    expect(web.code).toBe(1);
    // Under --json the error is JSON on stdout too (docs/scripting.md "Errors as JSON").
    const { error } = JSON.parse(web.stdout) as { error: { message: string } };
    expect(error.message).toMatch(/--json and --automation cannot be combined/);
  });
});

describe("--single-agent", () => {
  test("a value with spaces is the question, run by the first agent", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/scripted_team", "--json", "--single-agent", "What is 2+2?"],
      sandbox,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      question: "What is 2+2?",
      mode: "single",
      agents: [{ id: "alice" }],
    });
  });

  test("an id names an agent, else the error says how to ask that word", async () => {
    const sandbox = await makeSandbox();
    const named = await runCli(
      ["--config", "@examples/scripted_team", "--json", "--single-agent", "bob", "q?"],
      sandbox,
    );
    expect(JSON.parse(named.stdout)).toMatchObject({ agents: [{ id: "bob" }] });
    const unknown = await runCli(
      ["--config", "@examples/scripted_team", "--single-agent", "nobody", "q?"],
      sandbox,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /--single-agent nobody: no agent with that id; the config's agents are: alice, bob, carol \(to ask "nobody" with the first agent: coord --single-agent -- "nobody"\)/,
    );
  });
});

/** Runs the CLI in a pseudo-terminal (the Ink live view) and returns everything it drew. */
function inPty(args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        ([key, value]) =>
          value !== undefined &&
          !["CI", "CONTINUOUS_INTEGRATION", "NO_COLOR", "FORCE_COLOR"].includes(key),
      ),
    ) as Record<string, string>;
    const pty = spawnPty(process.execPath, [CLI, ...args], {
      cols: 120,
      rows: 40,
      cwd,
      env: { ...base, TERM: "xterm-256color", ...env },
    });
    let output = "";
    pty.onData((data) => (output += data));
    pty.onExit(() => resolve(output));
  });
}

/** SGR sequences (`ESC [ … m`): colours and text styles. */
// eslint-disable-next-line no-control-regex
const COLOUR = /\x1b\[[0-9;]*m/g;

describe("colour", () => {
  test("NO_COLOR and --no-color: zero colour escapes in the live view; FORCE_COLOR wins over NO_COLOR", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "rich.yaml"),
      [
        "agents:",
        "  - id: solo",
        "    backend: {type: scripted, steps: [{answer: Four.}, {vote: agent1, reason: mine}, {text: Four.}]}",
        "  - id: duo",
        "    backend: {type: scripted, steps: [{answer: Also four.}, {vote: agent1, reason: same}]}",
        "ui: {display_type: rich_terminal}",
      ].join("\n"),
    );
    const args = ["--config", "rich.yaml", "What is 2+2?"];
    const env = { HOME: sandbox.home };
    const coloured = await inPty(args, env, sandbox.cwd);
    expect(coloured).toMatch(/Four\./);
    expect(coloured.match(COLOUR)?.length ?? 0).toBeGreaterThan(0);
    const noColor = await inPty(args, { ...env, NO_COLOR: "1" }, sandbox.cwd);
    expect(noColor).toMatch(/Four\./);
    expect(noColor.match(COLOUR) ?? []).toEqual([]);
    const flag = await inPty(["--no-color", ...args], env, sandbox.cwd);
    expect(flag).toMatch(/Four\./);
    expect(flag.match(COLOUR) ?? []).toEqual([]);
    const forced = await inPty(args, { ...env, NO_COLOR: "1", FORCE_COLOR: "1" }, sandbox.cwd);
    expect(forced.match(COLOUR)?.length ?? 0).toBeGreaterThan(0);
  });
});

describe("coord completion", () => {
  test("bash loads the script and completes sub-commands, nested ones and options", async () => {
    const sandbox = await makeSandbox();
    const bash = await new Promise<CliResult>((resolve) => {
      const child = spawn(
        "bash",
        [
          "-c",
          [
            'eval "$($COORD completion bash)"',
            'COMP_WORDS=(coord sh); COMP_CWORD=1; _coord; echo "1:${COMPREPLY[*]}"',
            'COMP_WORDS=(coord logs li); COMP_CWORD=2; _coord; echo "2:${COMPREPLY[*]}"',
            'COMP_WORDS=(coord logs list --lim); COMP_CWORD=3; _coord; echo "3:${COMPREPLY[*]}"',
            'COMP_WORDS=(coord --single); COMP_CWORD=1; _coord; echo "4:${COMPREPLY[*]}"',
            "complete -p coord",
          ].join("\n"),
        ],
        {
          cwd: sandbox.cwd,
          env: {
            PATH: process.env.PATH ?? "",
            HOME: sandbox.home,
            COORD: `${process.execPath} ${CLI}`,
          },
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(bash.stderr).toBe("");
    expect(bash.stdout.split("\n")).toEqual([
      "1:shares",
      "2:list",
      "3:--limit",
      "4:--single-agent",
      "complete -o default -F _coord coord",
      "",
    ]);
  });

  test("fish and zsh scripts name every sub-command; an unknown shell is an error", async () => {
    const sandbox = await makeSandbox();
    const fish = await runCli(["completion", "fish"], sandbox);
    expect(fish.code).toBe(0);
    for (const name of ["serve", "logs", "viewer", "export", "shares", "eval", "completion"])
      expect(fish.stdout).toContain(`-a ${name} `);
    const zsh = await runCli(["completion", "zsh"], sandbox);
    expect(zsh.stdout).toMatch(/bashcompinit[\s\S]*complete -o default -F _coord coord/);
    const tcsh = await runCli(["completion", "tcsh"], sandbox);
    expect(tcsh.code).toBe(1);
    expect(tcsh.stderr).toMatch(/unknown shell; use one of bash, zsh, fish/);
  });
});
