/**
 * End-to-end tests of `coord "<question>"`: the built CLI spawned as a process with a scripted
 * team, checking stdout, stderr, the exit code (docs/architecture.md "Exit codes") and the run
 * logs.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

const AGREEING_TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - answer: "4"
        - vote: agent1
          reason: correct
        - text: "The answer is 4."
  - id: bob
    backend:
      type: scripted
      steps:
        - answer: "Four"
        - vote: agent1
          reason: same
  - id: carol
    backend:
      type: scripted
      steps:
        - answer: "2+2=4"
        - vote: agent1
          reason: clearest
`;

async function sandboxWithConfig(yaml: string, name = "team.yaml") {
  const sandbox = await makeSandbox();
  await writeFile(join(sandbox.cwd, name), yaml);
  return sandbox;
}

describe("coord <question>", () => {
  test("a three-agent scripted team answers, votes, and the logs hold the whole run", async () => {
    const sandbox = await sandboxWithConfig(AGREEING_TEAM);
    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], sandbox);
    expect(result.stderr).toContain("[orchestrator] Vote: alice (from bob: same)");
    expect(result.stderr).toContain("[orchestrator] Winner: alice (agent1.1; 3 votes)");
    expect(result.stdout).toBe("The answer is 4.\n");
    expect(result.code).toBe(0);

    const dir = await onlyAttemptDir(sandbox.cwd);
    expect(result.stderr).toContain(`[system] Logs: agent_outputs/`);
    const { events, truncated } = parseEventLog(await readLog(dir, "events.jsonl"));
    expect(truncated).toBe(false);
    expect(events[0]).toMatchObject({ type: "run-start", question: "What is 2+2?" });
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(events.filter((event) => event.type === "vote")).toHaveLength(3);

    const status = JSON.parse(await readLog(dir, "status.json")) as Record<string, unknown>;
    expect(status).toMatchObject({
      phase: "done",
      end_reason: "completed",
      winner: { agent_id: "alice", votes: 3 },
    });
    const metrics = JSON.parse(await readLog(dir, "metrics.json")) as {
      totals: { model_calls: number; rounds: Record<string, number> };
      agents: Array<{ id: string; model_calls: number }>;
    };
    expect(metrics.totals.model_calls).toBe(7);
    expect(metrics.totals.rounds).toMatchObject({ answer: 3, vote: 3, final: 1 });
    expect(metrics.agents.map((agent) => [agent.id, agent.model_calls])).toEqual([
      ["alice", 3],
      ["bob", 2],
      ["carol", 2],
    ]);
    expect(await readLog(dir, "final_answer.md")).toContain("The answer is 4.");
    const metadata = parseYaml(await readLog(dir, "execution_metadata.yaml")) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      question: "What is 2+2?",
      cli_args: ["--config", "team.yaml", "--no-display", "What is 2+2?"],
    });
    expect(metadata.coord_version).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("--output-file writes the final answer; --no-logs writes no log", async () => {
    const sandbox = await sandboxWithConfig(AGREEING_TEAM);
    const result = await runCli(
      ["--config", "team.yaml", "--no-display", "--no-logs", "--output-file", "out/answer.md", "q"],
      sandbox,
    );
    expect(result.code).toBe(0);
    expect(await readFile(join(sandbox.cwd, "out", "answer.md"), "utf8")).toBe(
      "The answer is 4.\n",
    );
    expect(existsSync(join(sandbox.cwd, "agent_outputs"))).toBe(false);
  });

  test("--debug writes coord_debug.log beside the turns", async () => {
    const sandbox = await sandboxWithConfig(AGREEING_TEAM);
    const result = await runCli(["--config", "team.yaml", "--no-display", "--debug", "q"], sandbox);
    expect(result.code).toBe(0);
    const logDir = join(
      sandbox.cwd,
      "agent_outputs",
      (await readdir(join(sandbox.cwd, "agent_outputs")))[0]!,
    );
    const debug = await readFile(join(logDir, "coord_debug.log"), "utf8");
    expect(debug).toMatch(/ #\d+ winner: alice \(/);
  });

  test("COORD_LOG_DIR moves the logs", async () => {
    const sandbox = await sandboxWithConfig(AGREEING_TEAM);
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], {
      ...sandbox,
      env: { COORD_LOG_DIR: "elsewhere" },
    });
    expect(result.code).toBe(0);
    expect((await readdir(join(sandbox.cwd, "elsewhere")))[0]).toMatch(/^log_\d{8}_\d{6}$/);
  });

  test("--single-agent ID runs one agent of the config; its answer is final", async () => {
    const sandbox = await sandboxWithConfig(`
agents:
  - id: alice
    backend: { type: scripted, steps: [] }
  - id: bob
    backend:
      type: scripted
      steps:
        - answer: "Bob alone says 4."
`);
    const result = await runCli(
      ["--config", "team.yaml", "--no-display", "--single-agent", "bob", "q"],
      sandbox,
    );
    expect(result.stdout).toBe("Bob alone says 4.\n");
    expect(result.code).toBe(0);
  });

  test("--quick: one answer each, the first agent presents", async () => {
    const sandbox = await sandboxWithConfig(`
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - answer: "4"
        - text: "Both say 4."
  - id: bob
    backend:
      type: scripted
      steps:
        - answer: "four"
`);
    const result = await runCli(["--config", "team.yaml", "--no-display", "--quick", "q"], sandbox);
    expect(result.stdout).toBe("Both say 4.\n");
    expect(result.stderr).not.toContain("Vote:");
    expect(result.code).toBe(0);
  });

  test("a project config in .coord/config.yaml is found without --config", async () => {
    const sandbox = await makeSandbox();
    await mkdir(join(sandbox.cwd, ".coord"));
    await writeFile(join(sandbox.cwd, ".coord", "config.yaml"), AGREEING_TEAM);
    const result = await runCli(["--no-display", "q"], sandbox);
    expect(result.stdout).toBe("The answer is 4.\n");
    expect(result.code).toBe(0);
  });

  test("the built-in scripted example runs with --config @examples/NAME", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--config", "@examples/scripted_team", "--no-logs", "q"], sandbox);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).not.toBe("");
  });
});

describe("errors and exit codes", () => {
  test("--model with --config exits 1 with one clear line", async () => {
    const sandbox = await sandboxWithConfig(AGREEING_TEAM);
    const result = await runCli(["--config", "team.yaml", "--model", "gpt-4o", "q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      "coord: --model and --config cannot be used together: use --config alone, or --backend/--model without it",
    ]);
    expect(result.stdout).toBe("");
  });

  test("no config anywhere exits 1 and says how to create one", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(".coord/config.yaml");
    expect(result.stderr).toContain("--backend");
  });

  test("a config error names the file, line, column and dotted key", async () => {
    const sandbox = await sandboxWithConfig(
      `agents:\n  - id: a\n    backend:\n      type: scripted\n      temperature: hot\n`,
    );
    const result = await runCli(["--config", "team.yaml", "q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /team\.yaml:5:\d+: agents\[0\]\.backend\.temperature: expected number/,
    );
  });

  test("unknown keys warn with their path and the run goes on", async () => {
    const sandbox = await sandboxWithConfig(`${AGREEING_TEAM}\nsnapshot_storage: snapshots\n`);
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], sandbox);
    expect(result.stderr).toMatch(
      /coord: warning: .*team\.yaml:\d+:\d+: unknown key snapshot_storage/,
    );
    expect(result.code).toBe(0);
  });

  test("`--backend claude_code` without credentials exits 1 naming both ways to sign in", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--backend", "claude_code", "--model", "claude-sonnet-4-5", "q"],
      sandbox,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("agents[0] (agent_a)");
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("CLAUDE_CODE_OAUTH_TOKEN");
    expect(existsSync(join(sandbox.cwd, "agent_outputs"))).toBe(false);
  });

  test("a missing API key exits 1 naming the agent and the variable, before any agent starts", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--backend", "openai", "--model", "gpt-4o-mini", "q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("agents[0] (agent_a)");
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(existsSync(join(sandbox.cwd, "agent_outputs"))).toBe(false);
  });

  test("--plan-steps must be > 0", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--plan-steps", "0", "q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--plan-steps must be an integer > 0");
  });

  test("every agent failing exits 2 with the providers' messages", async () => {
    const sandbox = await sandboxWithConfig(`
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - error: { status: 401, message: "invalid api key" }
        - error: { status: 401, message: "invalid api key" }
  - id: bob
    backend:
      type: scripted
      steps:
        - error: { status: 503, message: "overloaded" }
        - error: { status: 503, message: "overloaded" }
`);
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], sandbox);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "coord: every agent failed — alice: invalid api key; bob: overloaded",
    );
    expect(result.stdout).toBe("");
    const { events } = parseEventLog(
      await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl"),
    );
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "failed" });
  });

  test("a timeout with no answer exits 3", async () => {
    const sandbox = await sandboxWithConfig(`
agents:
  - id: slow
    backend:
      type: scripted
      steps:
        - { delay_ms: 30000, answer: "too late" }
timeout_settings:
  orchestrator_timeout_seconds: 0.5
`);
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], sandbox);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no answer before the orchestrator timeout");
  });

  test("Ctrl+C stops the run cleanly: exit 4 and a readable log", async () => {
    const sandbox = await sandboxWithConfig(`
agents:
  - id: a
    backend:
      type: scripted
      steps:
        - { delay_ms: 30000, answer: "never" }
  - id: b
    backend:
      type: scripted
      steps:
        - { delay_ms: 30000, answer: "never" }
`);
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], {
      ...sandbox,
      onSpawn: (child) => {
        child.stderr!.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("[b] Round 1")) child.kill("SIGINT");
        });
      },
    });
    expect(result.code).toBe(4);
    const dir = await onlyAttemptDir(sandbox.cwd);
    const { events, truncated } = parseEventLog(await readLog(dir, "events.jsonl"));
    expect(truncated).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "interrupted" });
    expect(JSON.parse(await readLog(dir, "status.json"))).toMatchObject({
      end_reason: "interrupted",
    });
  });
});
