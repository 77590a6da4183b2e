/**
 * `coord -c` in the interactive chat, in a real pseudo-terminal (tmux): the
 * chat continues this directory's last session, whose earlier turn reaches the agents' prompts.
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox, runCli } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

let pane: TmuxPane | undefined;
afterEach(() => pane?.close());

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

describe.skipIf(!hasTmux())("-c in the chat", () => {
  test("the chat continues the session a question started in this directory", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "first.yaml"), scriptedConfig("Paris."));
    await writeFile(
      join(box.cwd, "second.yaml"),
      scriptedConfig("Paris, in French too.", "Capital of France?"),
    );
    const first = await runCli(["--config", "first.yaml", "--json", "Capital of France?"], box);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;

    pane = new TmuxPane(
      `cd '${box.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${box.home}' ` +
        `'${process.execPath}' '${CLI}' --config second.yaml -c; echo EXIT=$?; sleep 60`,
      { columns: 120, rows: 40 },
    );
    await pane.waitFor(/Continuing: 1 earlier turn/);
    expect(pane.screen()).toContain(id);
    pane.type("And in French?");
    const answer = await pane.waitFor(/Paris, in French too\.|Turn failed/);
    expect(answer).not.toContain("Turn failed");
    // The turn is recorded (the next prompt is ready) before the chat is closed.
    await pane.waitFor("turn 3 · 4 messages of history");
    pane.keys("C-d");
    expect(await pane.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
    const sessions = JSON.parse((await runCli(["--list-sessions", "--json"], box)).stdout) as {
      id: string;
      turns: number;
    }[];
    expect(sessions).toEqual([expect.objectContaining({ id, turns: 2 })]);
    // The chat's turn is a new run: logged in a new log directory as turn_2, not in the first
    // run's directory.
    const root = join(box.cwd, "agent_outputs");
    const logDirs = (await readdir(root)).sort();
    expect(logDirs).toHaveLength(2);
    expect(await readdir(join(root, logDirs[0]!))).toEqual(["turn_1"]);
    expect(await readdir(join(root, logDirs[1]!))).toEqual(["turn_2"]);
  });
});
