/**
 * `--output-file` in every mode (spec section 4.1 "works in any mode"), through the built
 * CLI: a plan's execution keeps every chunk's answer, the interactive chat (in tmux) rewrites the
 * file with each turn's answer, and `--web` writes each run's answer.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox, runCli } from "./support/cli.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";
import { startWebCli, type WebCli } from "./support/web.js";

const TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      scripts:
        - match: "first"
          steps:
            - answer: "One."
        - match: "second"
          steps:
            - answer: "Two."
orchestrator:
  presenter_agent: alice
`;

const read = (path: string) => readFile(path, "utf8").catch(() => "");

let pane: TmuxPane | undefined;
let cli: WebCli | undefined;
afterEach(async () => {
  pane?.close();
  pane = undefined;
  await cli?.stop();
  cli = undefined;
});

describe("--output-file in every mode", () => {
  test("--plan-and-execute keeps every chunk's answer, each under its heading", async () => {
    const box = await makeSandbox();
    const result = await runCli(
      [
        "--config",
        "@examples/scripted_planning",
        "--plan-and-execute",
        "--plan-chunks",
        "2",
        "--no-display",
        "--output-file",
        "out/answer.md",
        "Write hello.txt and world.txt",
      ],
      box,
    );
    expect(result.code).toBe(0);
    const text = await read(join(box.cwd, "out", "answer.md"));
    // Alice presents each chunk (examples/scripted_planning.yaml); the plan itself is not in it.
    expect(text).toBe(
      "## Chunk 1 of 2\n\nChunk 1: hello.txt written and verified.\n\n" +
        "## Chunk 2 of 2\n\nChunk 2: world.txt written and verified.\n",
    );
  }, 120_000);

  test.skipIf(!hasTmux())(
    "the interactive chat rewrites the file with each turn's answer",
    async () => {
      const box = await makeSandbox();
      await writeFile(join(box.cwd, "team.yaml"), TEAM);
      const out = join(box.cwd, "chat.md");
      pane = new TmuxPane(
        `cd '${box.cwd}' && env -u CI -u CONTINUOUS_INTEGRATION HOME='${box.home}' ` +
          `'${process.execPath}' '${CLI}' --config team.yaml --output-file chat.md; echo EXIT=$?; sleep 60`,
      );
      await pane.waitFor("Ask the team, or /help");
      pane.type("the first question");
      await pane.waitFor(/turn 2 ·/);
      await expect.poll(() => read(out), { timeout: 15_000 }).toBe("One.\n");
      pane.type("the second question");
      await pane.waitFor(/turn 3 ·/);
      await expect.poll(() => read(out), { timeout: 15_000 }).toBe("Two.\n");
      pane.type("/quit");
      expect(await pane.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
    },
    60_000,
  );

  test("--web writes each run's answer", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), TEAM);
    const out = join(box.cwd, "web.md");
    cli = await startWebCli(
      ["--config", "team.yaml", "--output-file", "web.md", "the first question"],
      box,
    );
    await expect.poll(() => read(out), { timeout: 30_000 }).toBe("One.\n");
    const asked = await fetch(`${cli.url}api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "the second question" }),
    });
    expect(asked.status).toBe(200);
    await expect.poll(() => read(out), { timeout: 30_000 }).toBe("Two.\n");
  }, 90_000);
});
