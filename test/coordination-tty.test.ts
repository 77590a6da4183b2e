/**
 * Decomposition and personas in the terminal UI: the built CLI in a real pseudo-terminal (tmux)
 * with scripted teams slow enough to be seen working. The panels must show each agent's subtask
 * (`▸`) and stop, the strip the stop tally and the presenter; with `--personas`, each panel its
 * persona (`◇`).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

const DECOMPOSITION = `
agents:
  - id: cook
    subtask: "Choose the food and drinks."
    backend:
      type: scripted
      steps:
        - { delay_ms: 800, text: "Thinking about food.", answer: "Food: sandwiches and lemonade." }
        - { delay_ms: 800, stop: { status: complete, summary: "Food chosen." } }
        - { delay_ms: 500, text: "Meet at the lake at noon with sandwiches and lemonade." }
  - id: planner
    subtask: "Choose the place and the time."
    backend:
      type: scripted
      steps:
        - { delay_ms: 1000, answer: "The park by the lake, Saturday noon." }
        - { delay_ms: 4000, stop: { status: blocked, summary: "No weather forecast available." } }
orchestrator:
  coordination_mode: decomposition
`;

const PERSONA_TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - tool_calls:
            - name: assign_personas
              input:
                agent1: "You are a careful accountant who double-checks sums."
                agent2: "You are a poet who answers in images."
        - { delay_ms: 1500, answer: "4" }
        - { delay_ms: 2500, vote: agent1, reason: "exact" }
        - text: "2 + 2 = 4."
  - id: bob
    backend:
      type: scripted
      steps:
        - { delay_ms: 1500, answer: "Two pairs make four." }
        - { delay_ms: 2500, vote: agent1, reason: "shorter" }
`;

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

describe.skipIf(!hasTmux())("coordination modes in the terminal UI", () => {
  test("decomposition: subtasks in the panels, a stop, the stop tally, the presenter", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), DECOMPOSITION);
    const tty = startCoord(box, "--config team.yaml 'Plan a picnic.'");
    // While the planner still works, the cook has stopped.
    const working = await tty.waitFor("Stopped 1/2", 60_000);
    expect(working).toContain("coord · decomposition · working on subtasks");
    expect(working).toMatch(/│ ✓ cook scripted +││ \S planner scripted/);
    expect(working).toMatch(/│ stopped \(complete\) +││ thinking · round 2/);
    expect(working).toMatch(
      /│ ▸ Choose the food and drinks\. +││ ▸ Choose the place and the time\./,
    );
    expect(working).toContain("“Food chosen.”");
    // The end: the presenter, the blocked agent, the integrated answer.
    const done = await tty.waitFor("EXIT=0", 60_000);
    expect(done).toContain("★ Presenter cook (integrates every part)");
    expect(done).toMatch(/planner scripted stopped \(blocked\)/);
    expect(done).toContain("Meet at the lake at noon with sandwiches and lemonade.");
  });

  test("--personas: each panel shows its agent's persona", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), PERSONA_TEAM);
    const tty = startCoord(box, "--config team.yaml --personas perspective 'What is 2+2?'");
    const live = await tty.waitFor("◇ You are a poet", 60_000);
    expect(live).toMatch(
      /│ ◇ You are a careful accountant who double-checks sums\. +││ ◇ You are a poet who answers in images\./,
    );
    const done = await tty.waitFor("EXIT=0", 60_000);
    expect(done).toContain("2 + 2 = 4.");
  });
});
