/**
 * Ctrl+P in the interactive chat, end to end in a real pseudo-terminal (tmux): the working
 * directory starts read-only (`--cwd-context ro`), so the agent's write there is refused; Ctrl+P
 * makes it read-write for the next turn, and then the agent presenting the final answer writes
 * the file (docs/tools.md "Context paths").
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

function team(out: string): string {
  return `
agents:
  - id: solo
    backend:
      type: scripted
      cwd: ws
      scripts:
        - match: "First turn"
          steps:
            - tool_calls: [{ name: write_file, input: { path: "${out}", content: "too early" } }]
            - expect_prompt_contains: "is read-only"
              answer: "The folder is read-only: nothing written."
        - match: "Second turn"
          steps:
            - tool_calls: [{ name: write_file, input: { path: "${out}", content: "not yet" } }]
            - expect_prompt_contains: "only the agent presenting the final answer may write"
              answer: "I will write it when I present."
            - tool_calls: [{ name: write_file, input: { path: "${out}", content: "written after Ctrl+P" } }]
            - text: "Wrote out.txt."
`;
}

let pane: TmuxPane | undefined;
afterEach(() => pane?.close());

describe.skipIf(!hasTmux())("Ctrl+P switches the working directory's access", () => {
  test(
    "read-only refuses the write; after Ctrl+P the presenter's write succeeds",
    { timeout: 60_000 },
    async () => {
      const box = await makeSandbox();
      const out = join(box.cwd, "out.txt");
      await writeFile(join(box.cwd, "team.yaml"), team(out));
      const command =
        `cd '${box.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${box.home}' ` +
        `'${process.execPath}' '${CLI}' --config team.yaml --cwd-context ro; echo EXIT=$?; sleep 60`;
      pane = new TmuxPane(command, { columns: 120, rows: 40 });
      await pane.waitFor("Ask the team, or /help");
      expect(pane.screen()).toContain("cwd: read-only");

      pane.type("First turn");
      const first = await pane.waitFor(/The folder is read-only: nothing written\.|Turn failed/);
      expect(first).not.toContain("Turn failed");
      await pane.waitFor(/turn 2 ·/);
      await expect(readFile(out, "utf8")).rejects.toThrow(/ENOENT/);

      pane.keys("C-p");
      await pane.waitFor("cwd: read-write");
      pane.type("Second turn");
      const second = await pane.waitFor(/Wrote out\.txt\.|Turn failed/);
      expect(second).not.toContain("Turn failed");
      expect(await readFile(out, "utf8")).toBe("written after Ctrl+P");
      await pane.waitFor(/turn 3 ·/);

      pane.type("/quit");
      expect(await pane.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
    },
  );
});
