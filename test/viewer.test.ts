/**
 * `coord viewer` end to end in a real terminal (tmux): the fixture logs of
 * schema v1 and v2 replayed instantly; a slowed copy replayed at --replay-speed 1 (the panels
 * before the vote, then the winner: order, not time, is asserted; the pace itself is checked on a
 * virtual clock in src/commands/viewer-feed.test.tsx); --turn/--attempt; --pick; a run followed
 * while it is being written; trace lines when stdout is not a terminal.
 */
import { appendFile, cp, mkdir, readFile, writeFile } from "node:fs/promises";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox, runCli } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

const FIXTURES = new URL("./fixtures/logs/", import.meta.url).pathname;
const RUNS = join(FIXTURES, "runs");

let panes: TmuxPane[] = [];
afterEach(() => {
  for (const pane of panes) pane.close();
  panes = [];
});

/**
 * Runs `coord viewer …args` in a tmux pane; the shell prints `EXIT=<code>` after it. The pane is a
 * user's terminal: the test runner's `CI` variable is removed (with it Ink draws only at exit; the
 * viewer then replays as text, asserted below), unless `env` sets it again.
 */
function viewer(
  sandbox: { cwd: string; home: string },
  args: string[],
  env = "",
  size = { columns: 120, rows: 40 },
): TmuxPane {
  const quoted = args.map((arg) => `'${arg}'`).join(" ");
  const pane = new TmuxPane(
    `cd '${sandbox.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${sandbox.home}' ${env} '${process.execPath}' '${CLI}' viewer ${quoted}; echo EXIT=$?; sleep 60`,
    size,
  );
  panes.push(pane);
  return pane;
}

/** A log root in the sandbox holding one run made of `events` (turn 1, attempt 1). */
async function logWithEvents(
  sandbox: { cwd: string },
  name: string,
  events: string,
): Promise<string> {
  const attempt = join(sandbox.cwd, "agent_outputs", name, "turn_1", "attempt_1");
  await mkdir(attempt, { recursive: true });
  await writeFile(join(attempt, "events.jsonl"), events);
  return attempt;
}

/** The events of a fixture with every gap between events multiplied by `factor`. */
async function slowed(path: string, factor: number): Promise<string> {
  const lines = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
  const first = Date.parse((JSON.parse(lines[0]!) as { time: string }).time);
  return lines
    .map((line) => {
      const event = JSON.parse(line) as { time: string };
      event.time = new Date(first + (Date.parse(event.time) - first) * factor).toISOString();
      return `${JSON.stringify(event)}\n`;
    })
    .join("");
}

describe.runIf(hasTmux())("coord viewer in a terminal", () => {
  test.each([
    ["v1", "log_20261121_095058", ["alice", "bob", "carol"], "Winner alice"],
    ["v2", "log_20261123_070220", ["alice", "bob"], "Winner bob"],
  ])(
    "replays the schema %s fixture at once: panels, votes, winner, final answer; q quits",
    async (version, name, agents, winner) => {
      const sandbox = await makeSandbox();
      await logWithEvents(
        sandbox,
        name,
        await readFile(join(FIXTURES, version, "events.jsonl"), "utf8"),
      );
      const pane = viewer(sandbox, []);
      const screen = await pane.waitFor("replay finished · q quit", 30_000);
      expect(screen).toContain(`coord viewer · ${name} · turn 1 of 1 · attempt 1 of 1`);
      for (const agent of agents) expect(screen).toMatch(new RegExp(`╭─ ${agent} · `));
      expect(screen).toContain(winner);
      expect(screen).toContain("── Final answer");
      expect(screen).toContain("2 + 2 = 4.");
      expect(screen).toMatch(/coord · voting · done/);
      pane.keys("q");
      const after = await pane.waitFor("EXIT=0");
      // The compact end frame, then the final answer as plain text.
      expect(after).toMatch(/2 \+ 2 = 4\.\s*\nEXIT=0/);
    },
  );

  test("instant: the first frame is the whole run (every panel, a tool call, the votes, the final answer)", async () => {
    const sandbox = await makeSandbox();
    const pane = viewer(sandbox, [join(RUNS, "log_20261121_095544_three_agents")]);
    // The first screen that shows anything is already the end: no replay animation before it.
    const first = await pane.waitFor("coord viewer ·", 30_000);
    expect(first).toContain("replay finished · q quit");
    expect(first).not.toContain("replaying");
    expect(first).toContain("coord · voting · done");
    expect(first).toContain("Question: What is the capital of France?");
    expect(first).toContain("╭─ alice · planner-large · wrote the final answer · ★ winner ─");
    expect(first).toContain("╭─ bob · fast-small · voted for alice ─");
    expect(first).toContain("╭─ carol · fast-small · voted for alice ─");
    expect(first).toContain('│ ⚙ web_search {"query":"capital of France"}');
    expect(first).toContain("│   ↳ error: Unknown tool web_search. (0 ms)");
    expect(first).toContain("│   Paris.");
    expect(first).toContain("│ ✓ voted for alice (agent1.1): “More complete.”");
    expect(first).toContain("│ ✓ voted for alice (agent1.1): “Clearest.”");
    expect(first).toMatch(
      /── Final answer · alice \(agent1\.final\) ──\nThe capital of France is Paris\./,
    );
  });

  test("instant in a short terminal: the record scrolls with End, Home and ↓", async () => {
    const sandbox = await makeSandbox();
    const pane = viewer(sandbox, [join(RUNS, "log_20261121_095544_three_agents")], "", {
      columns: 100,
      rows: 16,
    });
    const top = await pane.waitFor(
      /lines 1–\d+ of \d+ · ↑↓ PgUp PgDn Home End scroll · q quit/,
      30_000,
    );
    expect(top).toContain("Question: What is the capital of France?");
    expect(top).not.toContain("Final answer");
    const total = Number(/lines 1–\d+ of (\d+)/.exec(top)![1]);
    pane.keys("End");
    const bottom = await pane.waitFor(new RegExp(`lines \\d+–${total} of ${total}`));
    expect(bottom).toMatch(
      /── Final answer · alice \(agent1\.final\) ──\nThe capital of France is Paris\./,
    );
    expect(bottom).not.toContain("Question:");
    pane.keys("Home");
    expect(await pane.waitFor(/lines 1–\d+ of/)).toContain("Question: What is the capital");
    pane.keys("Down");
    const down = await pane.waitFor(/lines 2–\d+ of/);
    expect(down).not.toContain("Question:");
    pane.keys("q");
    expect(await pane.waitFor("EXIT=0")).toContain("The capital of France is Paris.");
  });

  test("--replay-speed 1: the vote comes before the winner, in the recorded order", async () => {
    const sandbox = await makeSandbox();
    const events = await slowed(
      join(RUNS, "log_20261121_095544_three_agents", "turn_1", "attempt_1", "events.jsonl"),
      20, // 255 ms → 5.1 s
    );
    await logWithEvents(sandbox, "log_20261121_095544_slow", events);
    const pane = viewer(sandbox, ["--replay-speed", "1"]);
    const early = await pane.waitFor(/replay ×1 · q quit/, 30_000);
    expect(early).not.toContain("Winner");
    expect(early).not.toContain("replay finished");
    const voting = await pane.waitFor("answering and voting", 30_000);
    expect(voting).not.toContain("Winner");
    const end = await pane.waitFor("replay finished", 30_000);
    expect(end).toContain("Winner alice");
    expect(end).toContain("The capital of France is Paris.");
  });

  test("--turn and --attempt choose among a session's turns and retries", async () => {
    const sandbox = await makeSandbox();
    const log = join(RUNS, "log_20261121_095547_multi_turn");
    const first = viewer(sandbox, [log, "--turn", "1"]);
    const turnOne = await first.waitFor("replay finished", 30_000);
    expect(turnOne).toContain("turn 1 of 2 · attempt 1 of 1");
    const timedOut = viewer(sandbox, [log, "--turn", "2", "--attempt", "1"]);
    const retry = await timedOut.waitFor("replay finished", 30_000);
    expect(retry).toContain("turn 2 of 2 · attempt 1 of 2");
    expect(retry).toContain("timeout");
    const missing = await runCli(["viewer", log, "--turn", "3"], sandbox);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`coord: ${log} has no turn_3 (turns: 1, 2)\n`);
  });

  test("--pick lists the recent runs with status, winner and question, and views the chosen one", async () => {
    const sandbox = await makeSandbox();
    await cp(RUNS, join(sandbox.cwd, "agent_outputs"), { recursive: true });
    const pane = viewer(sandbox, ["--pick"]);
    const list = await pane.waitFor("What is the capital of France?", 30_000);
    expect(list).toContain(
      "2026-11-21 09:55:44 · completed · winner alice · What is the capital of France?",
    );
    expect(list).toContain(
      "2026-11-21 09:55:47 · completed · winner ben · 2 turns · Which database should our team app use?",
    );
    expect(list).toContain(
      "2026-11-21 09:55:54 · incomplete · winner solo_a · Write a haiku about rain.",
    );
    pane.keys("Down");
    pane.keys("Enter");
    const screen = await pane.waitFor("replay finished", 30_000);
    expect(screen).toContain("coord viewer · log_20261121_095552_analyzed");
  });

  test("follows a run still being written (a half line included) until its run-end", async () => {
    const sandbox = await makeSandbox();
    const text = await readFile(join(FIXTURES, "v2", "events.jsonl"), "utf8");
    const lines = text.split("\n").filter((line) => line !== "");
    const winnerAt = lines.findIndex((line) => line.includes('"type":"winner"'));
    const attempt = await logWithEvents(
      sandbox,
      "log_20261123_070220",
      `${lines.slice(0, winnerAt).join("\n")}\n${lines[winnerAt]!.slice(0, 30)}`,
    );
    const pane = viewer(sandbox, []);
    const following = await pane.waitFor("following the run as it is written", 30_000);
    expect(following).not.toContain("Winner");
    await appendFile(join(attempt, "events.jsonl"), `${lines[winnerAt]!.slice(30)}\n`);
    await pane.waitFor("Winner bob", 30_000);
    for (const line of lines.slice(winnerAt + 1)) {
      await appendFile(join(attempt, "events.jsonl"), `${line}\n`);
    }
    const end = await pane.waitFor("replay finished", 30_000);
    expect(end).toContain("2 + 2 = 4.");
  });
});

describe.runIf(hasTmux())("coord viewer in a CI runner's terminal", () => {
  test("CI=true: the text replay, not an Ink view that would draw only at exit", async () => {
    const sandbox = await makeSandbox();
    await logWithEvents(
      sandbox,
      "log_20261123_070220",
      await readFile(join(FIXTURES, "v2", "events.jsonl"), "utf8"),
    );
    const pane = viewer(sandbox, [], "CI=true");
    const screen = await pane.waitFor("EXIT=0", 30_000);
    expect(screen).toContain("[system] Question: What is 2 + 2?");
    expect(screen).toContain("[orchestrator] Winner: bob");
    expect(screen).toContain("2 + 2 = 4.");
    expect(screen).not.toContain("q quit");
  });
});

describe("coord viewer without a terminal", () => {
  test("prints the trace lines and the final answer", async () => {
    const sandbox = await makeSandbox();
    await logWithEvents(
      sandbox,
      "log_20261123_070220",
      await readFile(join(FIXTURES, "v2", "events.jsonl"), "utf8"),
    );
    const result = await runCli(["viewer"], sandbox);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("[system] Question: What is 2 + 2?");
    expect(result.stdout).toContain("[orchestrator] Winner: bob (agent2.1;");
    expect(result.stdout.endsWith("\n\n2 + 2 = 4.\n")).toBe(true);
  });

  test("--no-follow on a crashed log shows what is there and ends; no log at all is one line", async () => {
    const sandbox = await makeSandbox();
    const crashed = join(RUNS, "log_20261121_095554_crashed");
    const result = await runCli(["viewer", crashed, "--no-follow"], sandbox);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("[system] Question: Write a haiku about rain.");
    expect(result.stdout).not.toContain("Run completed");
    const none = await runCli(["viewer"], sandbox);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      `coord: no run logs in ${join(sandbox.cwd, "agent_outputs")}: run coord "<question>" first, name a log (coord viewer agent_outputs/log_…), or set COORD_LOG_DIR to where your logs are\n`,
    );
  });

  test("follows a real run until it is killed with kill -9: the sessions registry says it is gone", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `agents:
  - id: quick
    backend: { type: scripted, steps: [{ answer: "quick answer" }, { delay_ms: 120000, vote: agent1 }] }
  - id: stuck
    backend: { type: scripted, steps: [{ delay_ms: 120000, answer: "never" }] }
`,
    );
    let run: ChildProcess | undefined;
    let answered!: () => void;
    const hasAnswer = new Promise<void>((resolve) => (answered = resolve));
    const killed = runCli(["--config", "team.yaml", "--no-display", "q"], {
      ...sandbox,
      onSpawn(child) {
        run = child;
        let stderr = "";
        child.stderr!.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes("New answer agent1.1")) answered();
        });
      },
    });
    await hasAnswer;
    const result = await runCli(["viewer"], {
      ...sandbox,
      onSpawn(viewerChild) {
        let stderr = "";
        viewerChild.stderr!.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes("following it")) run!.kill("SIGKILL");
        });
      },
    });
    expect((await killed).code).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("[quick] New answer agent1.1: quick answer");
    expect(result.stdout).not.toContain("Run completed");
    expect(result.stderr.trim().split("\n")).toEqual([
      "coord: the run has not ended: following it (Ctrl+C to stop)",
      "coord: the run's coord process is gone without a run-end (killed or crashed): that is all it wrote",
    ]);
  });

  test.each([
    [["--replay-speed", "0"], "--replay-speed must be a number > 0 (1 is real time)"],
    [["--port", "9000"], "--port goes with --web: coord viewer --web --port N"],
    [["--pick", "somewhere"], "--pick chooses the log: give either LOG_DIR or --pick, not both"],
  ])("%j → exit 1 with one line", async (args, message) => {
    const sandbox = await makeSandbox();
    const result = await runCli(["viewer", ...args], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
