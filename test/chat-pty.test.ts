/**
 * The interactive chat end to end in a real pseudo-terminal (tmux): the built binary with a
 * scripted team whose later turns only pass when the earlier answers reached the agents'
 * prompts (`expect_prompt_contains`). Checks the live panels, the answers, /inspect, /quit,
 * --list-sessions, --session-id, Ctrl+C (cancel a turn, then quit with exit code 4) and SIGTERM.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import { CLI, makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

const TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      scripts:
        - match: "What is 2+2?"
          steps:
            - { delay_ms: 700, reasoning: "Small sum.", text: "Adding two and two.", answer: "4" }
            - { delay_ms: 300, vote: agent1, reason: "shortest" }
            - text: "The answer is 4."
        - match: "Double it"
          steps:
            - expect_prompt_contains: ["What is 2+2?", "The answer is 4."]
              answer: "8"
            - vote: agent1
            - text: "Doubled, it is 8."
        - match: "Now add both"
          steps:
            - expect_prompt_contains: ["The answer is 4.", "Doubled, it is 8."]
              answer: "12"
            - text: "4 + 8 = 12."
  - id: bob
    backend:
      type: scripted
      scripts:
        - match: "What is 2+2?"
          steps:
            - { delay_ms: 900, text: "Counting: 3, 4.", answer: "four" }
            - { delay_ms: 300, vote: agent1, reason: "same, shorter" }
        - match: "Double it"
          steps:
            - expect_prompt_contains: "The answer is 4."
              answer: "eight"
            - vote: agent1
        - match: "Now add both"
          steps:
            - expect_prompt_contains: "Doubled, it is 8."
              answer: "twelve"
orchestrator:
  presenter_agent: alice
`;

const SLOW_TEAM = `
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
`;

interface SessionJson {
  id: string;
  status: string;
  turns: number;
  kind: string;
  log_dir: string;
}

let pane: TmuxPane | undefined;
afterEach(() => pane?.close());

/** Starts `coord …` in a 120×40 pane; the pane then prints EXIT=<code> and stays open. */
function startCoord(box: { cwd: string; home: string }, args: string): TmuxPane {
  const command =
    `cd '${box.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${box.home}' ` +
    `'${process.execPath}' '${CLI}' ${args}; echo EXIT=$?; sleep 60`;
  pane = new TmuxPane(command, { columns: 120, rows: 40 });
  return pane;
}

async function listSessions(box: { cwd: string; home: string }): Promise<SessionJson[]> {
  const result = await runCli(["--list-sessions", "--json"], box);
  return JSON.parse(result.stdout) as SessionJson[];
}

describe.skipIf(!hasTmux())("interactive chat in a terminal", () => {
  test("two turns with history, /inspect, /quit; then --list-sessions and --session-id", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), TEAM);
    const tty = startCoord(box, "--config team.yaml");
    await tty.waitFor("Ask the team, or /help");
    expect(tty.screen()).toMatch(/session_\d{8}_\d{6} · turn 1 · Refine on · cwd: off · 2 agents/);

    tty.type("What is 2+2?");
    // The live panels, while the agents stream.
    const live = await tty.waitFor(/╭[\s\S]*(thinking|answered agent1\.1)/);
    expect(live).toMatch(/│ \S alice scripted +││ \S bob scripted/);
    await tty.waitFor(/Adding two and two\.|answered agent1\.1/);
    // The answer, under a rule naming its author.
    const first = await tty.waitFor(/── alice \(agent1\.final\)[\s\S]*The answer is 4\./);
    expect(first).toMatch(/turn 1 · winner alice \(agent1\.1, 2\/2 votes\)/);
    await tty.waitFor(/turn 2 · 2 messages of history/);

    // The follow-up only passes if the first question and answer reached both agents' prompts.
    tty.type("Double it");
    const second = await tty.waitFor(/Doubled, it is 8\.|Turn failed/);
    expect(second).not.toContain("Turn failed");
    await tty.waitFor(/turn 3 · 4 messages of history/);

    tty.type("/inspect 1");
    const inspected = await tty.waitFor("Turn 1 (completed): What is 2+2?");
    expect(inspected).toContain("agent2.1 by bob:");
    expect(inspected).toContain("bob → alice (agent1.1): same, shorter");

    tty.type("/quit");
    const bye = await tty.waitFor(/EXIT=\d+/);
    expect(bye).toContain("EXIT=0");
    expect(bye).toMatch(/Session session_\d{8}_\d{6} saved \(2 turns\)/);
    tty.close();

    const [session] = await listSessions(box);
    expect(session).toMatchObject({ kind: "interactive", status: "completed", turns: 2 });
    const table = await runCli(["--list-sessions"], box);
    expect(table.stdout).toContain(session!.id);
    expect(
      (await readdir(session!.log_dir)).filter((name) => name.startsWith("turn_")).sort(),
    ).toEqual(["turn_1", "turn_2"]);

    // --session-id continues it: the third turn sees both earlier turns.
    const again = startCoord(box, `--config team.yaml --quick --session-id ${session!.id}`);
    await again.waitFor("Continuing: 2 earlier turns, 2 answered and in the history");
    expect(again.screen()).toContain("Refine off");
    again.type("Now add both");
    const third = await again.waitFor(/4 \+ 8 = 12\.|Turn failed/);
    expect(third).not.toContain("Turn failed");
    await again.waitFor("turn 4 · 6 messages of history");
    again.keys("C-d");
    expect(await again.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
    expect((await listSessions(box))[0]).toMatchObject({ id: session!.id, turns: 3 });
  });

  test("plain `coord` finds .coord/config.yaml and starts the chat (spec section 1)", async () => {
    const box = await makeSandbox();
    await mkdir(join(box.cwd, ".coord"));
    await writeFile(join(box.cwd, ".coord", "config.yaml"), TEAM);
    const tty = startCoord(box, "--cwd-context rw --single-agent bob");
    const screen = await tty.waitFor("Ask the team, or /help");
    expect(screen).toContain(join(box.cwd, ".coord", "config.yaml"));
    expect(screen).toContain("cwd: read-write · bob only");
    tty.keys("C-p");
    await tty.waitFor("cwd: off · bob only");
    tty.type("/q");
    expect(await tty.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
  });

  test("Ctrl+C cancels the running turn and keeps its log; twice more quits with code 4", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), SLOW_TEAM);
    const tty = startCoord(box, "--config team.yaml");
    await tty.waitFor("Ask the team, or /help");
    tty.type("A question that takes too long");
    await tty.waitFor(/thinking/);
    tty.keys("C-c");
    await tty.waitFor("Turn cancelled: its partial work is in the log");
    await tty.waitFor("Ask the team, or /help");
    tty.keys("C-c");
    await tty.waitFor("Ctrl+C again to quit");
    tty.keys("C-c");
    expect(await tty.waitFor(/EXIT=\d+/)).toContain("EXIT=4");

    const [session] = await listSessions(box);
    expect(session).toMatchObject({ status: "interrupted", turns: 1 });
    const turn = JSON.parse(
      await readFile(join(box.home, ".coord", "sessions", session!.id, "turn_1.json"), "utf8"),
    ) as { status: string; answer: string | null };
    expect(turn).toMatchObject({ status: "interrupted", answer: null });
    const { events, truncated } = parseEventLog(
      await readFile(join(session!.log_dir, "turn_1", "attempt_1", "events.jsonl"), "utf8"),
    );
    expect(truncated).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "interrupted" });
    const status = JSON.parse(
      await readFile(join(session!.log_dir, "turn_1", "attempt_1", "status.json"), "utf8"),
    ) as { end_reason: string };
    expect(status.end_reason).toBe("interrupted");
  });

  test("SIGTERM ends the chat like a closed terminal: the turn stops, the session is interrupted", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), SLOW_TEAM);
    const tty = startCoord(box, "--config team.yaml");
    await tty.waitFor("Ask the team, or /help");
    tty.type("A question that takes too long");
    await tty.waitFor(/thinking/);
    // The session records the chat's process id: that is whom to signal.
    const registry = async () =>
      (
        JSON.parse(await readFile(join(box.home, ".coord", "sessions.json"), "utf8")) as {
          sessions: Array<{ id: string; pid: number; status: string }>;
        }
      ).sessions;
    const [running] = await registry();
    expect(running).toMatchObject({ status: "active" });
    process.kill(running!.pid, "SIGTERM");
    expect(await tty.waitFor(/EXIT=\d+/)).toContain("EXIT=4");

    // Closed by the chat itself (not only reported so because its process is gone).
    expect((await registry())[0]).toMatchObject({ id: running!.id, status: "interrupted" });
    const { events, truncated } = parseEventLog(
      await readLog(await onlyAttemptDir(box.cwd), "events.jsonl"),
    );
    expect(truncated).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "interrupted" });
  });
});
