/**
 * End-to-end tests of memory sessions and automation output: the built CLI with scripted teams,
 * a temp HOME (so ~/.coord/sessions.json is the test's own) and a temp working directory.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, runCli } from "./support/cli.js";

/**
 * A two-agent team with one script per question: the follow-up's steps only pass when the first
 * answer ("The answer is 4.") reached the prompt as history.
 */
const TWO_TURN_TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      scripts:
        - match: "What is 2+2?"
          steps:
            - answer: "4"
            - vote: agent1
            - text: "The answer is 4."
        - match: "Double it"
          steps:
            - expect_prompt_contains: ["What is 2+2?", "The answer is 4."]
              answer: "8"
            - vote: agent1
            - text: "Doubled, it is 8."
  - id: bob
    backend:
      type: scripted
      scripts:
        - match: "What is 2+2?"
          steps:
            - answer: "four"
            - vote: agent1
        - match: "Double it"
          steps:
            - expect_prompt_contains: "The answer is 4."
              answer: "eight"
            - vote: agent1
`;

interface SessionJson {
  id: string;
  status: string;
  turns: number;
  models: string[];
  kind: string;
  log_dir: string | null;
  config_path: string | null;
}

async function sandbox(yaml = TWO_TURN_TEAM) {
  const box = await makeSandbox();
  await writeFile(join(box.cwd, "team.yaml"), yaml);
  return box;
}

async function sessions(box: { cwd: string; home: string }): Promise<SessionJson[]> {
  const result = await runCli(["--list-sessions", "--json"], box);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as SessionJson[];
}

describe("memory sessions", () => {
  test("a single query is a session; --list-sessions shows it; --session-id continues it", async () => {
    const box = await sandbox();
    const first = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], box);
    expect(first.stdout).toBe("The answer is 4.\n");
    expect(first.code).toBe(0);
    const [session] = await sessions(box);
    expect(session).toMatchObject({
      status: "completed",
      turns: 1,
      kind: "single",
      models: ["scripted/scripted", "scripted/scripted"],
    });
    expect(session!.id).toMatch(/^session_\d{8}_\d{6}$/);
    expect(first.stderr).toContain(`[system] Session: ${session!.id}`);

    const table = await runCli(["--list-sessions"], box);
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+STARTED\s+TURNS\s+STATUS\s+MODELS$/);
    expect(table.stdout).toMatch(
      new RegExp(
        `${session!.id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+1\\s+completed\\s+scripted/scripted ×2\\n`,
      ),
    );

    const second = await runCli(
      ["--config", "team.yaml", "--no-display", "--session-id", session!.id, "Double it"],
      box,
    );
    expect(second.stderr).not.toContain("expected the prompt");
    expect(second.stdout).toBe("Doubled, it is 8.\n");
    expect(second.code).toBe(0);
    const [continued] = await sessions(box);
    expect(continued).toMatchObject({ id: session!.id, turns: 2, status: "completed" });
    // The continued turn is a new run: its own log directory, named as turn_2 of the session;
    // the first run's directory keeps only turn_1.
    const logDir = continued!.log_dir!;
    expect(logDir).not.toBe(session!.log_dir);
    expect((await readdir(logDir)).filter((name) => name.startsWith("turn_"))).toEqual(["turn_2"]);
    expect(await readdir(session!.log_dir!)).not.toContain("turn_2");
    const { events } = parseEventLog(
      await readFile(join(logDir, "turn_2", "attempt_1", "events.jsonl"), "utf8"),
    );
    expect(events[0]).toMatchObject({ type: "run-start", historyTurns: 1 });
    const turns = await readdir(join(box.home, ".coord", "sessions", session!.id));
    expect(turns.sort()).toEqual(["turn_1.json", "turn_2.json"]);
  });

  test("session_id: in the YAML continues the session like --session-id", async () => {
    const box = await sandbox();
    expect(
      (await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], box)).code,
    ).toBe(0);
    const [session] = await sessions(box);
    await writeFile(
      join(box.cwd, "continue.yaml"),
      `${TWO_TURN_TEAM}\nsession_id: ${session!.id}\n`,
    );
    const result = await runCli(["--config", "continue.yaml", "--no-display", "Double it"], box);
    expect(result.stdout).toBe("Doubled, it is 8.\n");
    expect(result.code).toBe(0);
    expect((await sessions(box))[0]).toMatchObject({ id: session!.id, turns: 2 });
  });

  test("an unknown --session-id exits 1 and lists recent ids", async () => {
    const box = await sandbox();
    await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], box);
    const [session] = await sessions(box);
    const result = await runCli(
      ["--config", "team.yaml", "--session-id", "session_19990101_000000", "Double it"],
      box,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--session-id session_19990101_000000: no such session");
    expect(result.stderr).toContain(`recent sessions: ${session!.id}`);
    expect(result.stdout).toBe("");
  });

  test("a run that cannot start (a missing key) leaves no session behind", async () => {
    const box = await makeSandbox();
    const result = await runCli(["--backend", "openai", "--model", "gpt-4o-mini", "q"], box);
    expect(result.code).toBe(1);
    expect(await sessions(box)).toEqual([]);
  });

  test("no sessions yet: --list-sessions says so; --json is []", async () => {
    const box = await makeSandbox();
    const table = await runCli(["--list-sessions"], box);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("No sessions yet");
    expect(await sessions(box)).toEqual([]);
    const misuse = await runCli(["--json"], box);
    expect(misuse.code).toBe(1);
    expect(misuse.stderr).toContain("--json needs a question");
  });

  test("an interrupted single query marks its session interrupted", async () => {
    const box = await sandbox(`
agents:
  - id: slow
    backend:
      type: scripted
      steps:
        - { delay_ms: 30000, answer: "never" }
`);
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], {
      ...box,
      onSpawn: (child) => {
        child.stderr!.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("[slow] Round 1")) child.kill("SIGINT");
        });
      },
    });
    expect(result.code).toBe(4);
    expect((await sessions(box))[0]).toMatchObject({ status: "interrupted", turns: 1 });
  });
});

describe("--automation", () => {
  test("prints only the fixed lines; the answer is in ANSWER_FILE", async () => {
    const box = await sandbox();
    const result = await runCli(["--config", "team.yaml", "--automation", "What is 2+2?"], box);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.split(":")[0])).toEqual([
      "LOG_DIR",
      "STATUS",
      "QUESTION",
      "WINNER",
      "ANSWER_FILE",
      "DURATION",
      "COMPLETED",
    ]);
    const value = (key: string) =>
      lines.find((line) => line.startsWith(`${key}: `))!.slice(key.length + 2);
    expect(value("QUESTION")).toBe("What is 2+2?");
    expect(value("WINNER")).toBe("alice");
    expect(value("DURATION")).toMatch(/^\d+\.\ds$/);
    expect(value("COMPLETED")).toBe("true");
    expect(value("LOG_DIR")).toMatch(/agent_outputs\/log_\d{8}_\d{6}$/);
    expect(JSON.parse(await readFile(value("STATUS"), "utf8"))).toMatchObject({ phase: "done" });
    expect(await readFile(value("ANSWER_FILE"), "utf8")).toContain("The answer is 4.");
  });

  test("a failed run: COMPLETED: false and exit 2", async () => {
    const box = await sandbox(`
agents:
  - id: a
    backend:
      type: scripted
      steps:
        - error: { status: 401, message: "invalid api key" }
        - error: { status: 401, message: "invalid api key" }
`);
    const result = await runCli(["--config", "team.yaml", "--automation", "q"], box);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("WINNER: none\nANSWER_FILE: none\n");
    expect(result.stdout).toContain("COMPLETED: false\n");
    expect(result.stderr).toContain("every agent failed");
  });

  test("without a question it is a usage error", async () => {
    const box = await sandbox();
    const result = await runCli(["--config", "team.yaml", "--automation"], box);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--automation needs a question");
  });
});
