/**
 * `--broadcast human` in a real pseudo-terminal (tmux): an agent's question
 * appears on the terminal, the answer typed there is the asking agent's tool result and reaches
 * the other agent's next prompt (its script fails unless the prompt carries it), and the plan
 * both then agree on is stored. Ctrl+P while a plan executes shows that it is blocked (spec
 * §4.1), and Ctrl+C still stops the run.
 */
import { copyFile, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

let pane: TmuxPane | undefined;
afterEach(() => pane?.close());

/** Waits until the run's events.jsonl under `<cwd>/agent_outputs` matches `pattern`. */
async function waitForFile(cwd: string, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const root = join(cwd, "agent_outputs");
    const [log] = await readdir(root).catch(() => [] as string[]);
    const text =
      log === undefined
        ? ""
        : await readFile(join(root, log, "turn_1", "attempt_1", "events.jsonl"), "utf8").catch(
            () => "",
          );
    if (pattern.test(text)) return;
    if (Date.now() > deadline) throw new Error(`events.jsonl never matched ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!hasTmux())("--broadcast human", () => {
  test(
    "the question appears; the typed answer reaches the agents' next prompts",
    { timeout: 60_000 },
    async () => {
      const box = await makeSandbox();
      await copyFile(
        join(REPO_ROOT, "test", "fixtures", "planning", "ask-user.yaml"),
        join(box.cwd, "team.yaml"),
      );
      const command =
        `cd '${box.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${box.home}' ` +
        `'${process.execPath}' '${CLI}' --config team.yaml --plan --broadcast human 'Build a site'; echo EXIT=$?; sleep 60`;
      pane = new TmuxPane(command, { columns: 150, rows: 50 });
      await pane.waitFor("? alice asks you (q1):", 30_000);
      const asked = await pane.waitFor("Your answer (Enter to skip):");
      // The question stands on its own: a block after the run's earlier lines, the question on
      // its own line, the prompt last.
      expect(asked).toMatch(
        /\[alice\] Asks the user \(q1\)[^\n]*\n\n─+\n\? alice asks you \(q1\):\n│ Which framework should the site use\?\n {2}\(the team's progress lines are held until you answer\)\n─+\nYour answer \(Enter to skip\):\s*$/,
      );
      // bob answers (3 s in) while the question is open: its lines wait below the prompt.
      // (its plan event comes after its answer's, whose trace line would be on screen by then).
      await waitForFile(box.cwd, /"type":"plan","agentId":"bob"/);
      expect(pane.screen()).not.toContain("[bob] New answer");
      expect(pane.screen()).toMatch(/Your answer \(Enter to skip\):\s*$/);
      pane.type("Plain HTML, no framework");
      const screen = await pane.waitFor(/EXIT=\d+/, 30_000);
      expect(screen).toContain("The user answered: Plain HTML, no framework");
      // Then the held lines follow the answer.
      expect(screen).toMatch(/Plain HTML, no framework\n\(sent to alice\)\n\n\[bob\] New answer/);
      expect(screen).toContain("EXIT=0");
      expect(screen).toContain("Winner: alice");
      const [plan] = await readdir(join(box.cwd, ".coord", "plans"));
      const decisions = await readFile(
        join(box.cwd, ".coord", "plans", plan!, "design_decisions.md"),
        "utf8",
      );
      expect(decisions).toBe("Plain HTML, as the user asked.\n");
    },
  );
});

describe.skipIf(!hasTmux())("Ctrl+P while a plan executes", () => {
  test("shows the blocked message; Ctrl+C still interrupts", { timeout: 60_000 }, async () => {
    const box = await makeSandbox();
    for (const file of ["one-task-plan.yaml", "slow-execute.yaml"])
      await copyFile(join(REPO_ROOT, "test", "fixtures", "planning", file), join(box.cwd, file));
    const planned = await runCli(["--config", "one-task-plan.yaml", "--plan", "A page"], box);
    expect(planned.code).toBe(0);
    const command =
      `cd '${box.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${box.home}' ` +
      `'${process.execPath}' '${CLI}' --config slow-execute.yaml --execute-plan latest; echo EXIT=$?; sleep 60`;
    pane = new TmuxPane(command, { columns: 120, rows: 30 });
    await pane.waitFor("coord · execution", 30_000);
    // The strip shows the chunk and the task progress.
    await pane.waitFor("chunk 1/1 │ tasks 0/1");
    pane.keys("C-p");
    await pane.waitFor(
      "Ctrl+P is blocked while a plan executes: the working-directory scope cannot change mid-execution.",
    );
    pane.keys("C-c");
    const screen = await pane.waitFor(/EXIT=\d+/, 30_000);
    expect(screen).toContain("EXIT=4");
    expect(screen).toContain("resume: coord --execute-plan");
  });
});
