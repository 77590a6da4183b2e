/**
 * `--broadcast human` in a real pseudo-terminal (tmux; issue 11 item 3): an agent's question
 * appears on the terminal, the answer typed there is the asking agent's tool result and reaches
 * the other agent's next prompt (its script fails unless the prompt carries it), and the plan
 * both then agree on is stored.
 */
import { copyFile, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox, REPO_ROOT } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

let pane: TmuxPane | undefined;
afterEach(() => pane?.close());

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
      await pane.waitFor("[alice] asks you (q1): Which framework should the site use?", 30_000);
      await pane.waitFor("Your answer (Enter to skip):");
      pane.type("Plain HTML, no framework");
      const screen = await pane.waitFor(/EXIT=\d+/, 30_000);
      expect(screen).toContain("The user answered: Plain HTML, no framework");
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
