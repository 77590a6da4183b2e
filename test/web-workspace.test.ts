/**
 * The workspace browser of `coord --web` (docs/web.md "Workspace browser") in Debian chromium,
 * on a real run whose agents write files with their file tools (docs/tools.md): two scripted
 * agents with workspaces (`backend.cwd`); the writer writes plan.md with `write_file`, then waits
 * in `execute_command` until the test creates a release file, so the run is held mid-way without
 * a timer. While it is held the Workspace tab offers each agent's live workspace and the
 * snapshots taken so far; once it ends, the final result (the presenter's workspace after its
 * final answer) with the files it wrote. Nothing outside an offered root can be read: not `..`,
 * not an absolute path, not a symlink pointing out; a FIFO an agent made is refused at once
 * (it once froze the page) and left out of the snapshots.
 */
import { execFileSync } from "node:child_process";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import { launchChromium, screenshot, startWebCli, type WebCli } from "./support/web.js";

let browser: Browser;
let cli: WebCli | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await cli?.stop();
  await browser?.close();
});

/** The team: the writer drafts plan.md, waits for `release`, answers, and presents with a summary. */
function toolsTeam(release: string): string {
  const wait = `until [ -e '${release}' ]; do sleep 0.1; done; echo released`;
  return `agents:
  - id: writer
    backend:
      type: scripted
      cwd: writer_ws
      enable_mcp_command_line: true
      steps:
        - tool_calls:
            - name: write_file
              input: { path: plan.md, content: "# Release plan\\n\\n1. Freeze the branch.\\n2. Run the checks.\\n" }
        - tool_calls:
            - name: execute_command
              input: { command: ${JSON.stringify(wait)}, timeout_seconds: 600 }
        - answer: "The plan is in plan.md in my workspace."
        - vote: agent1
          reason: "The plan is written down."
        - tool_calls:
            - name: write_file
              input: { path: notes/summary.txt, content: "Freeze, check, tag.\\n" }
        - text: "The release plan is in plan.md; a summary in notes/summary.txt."
  - id: reviewer
    backend:
      type: scripted
      cwd: reviewer_ws
      steps:
        - answer: "Freeze the branch, then run the checks."
        - vote: agent1
          reason: "agent1 wrote the plan down."
orchestrator:
  defer_voting_until_all_answered: true
`;
}

interface View {
  turns: { key: string; logDir: string }[];
}

interface Root {
  id: string;
  path: string;
}

const chips = (page: Page, agent: string) =>
  page.locator(`[data-testid=agent-card][data-agent=${agent}] [data-testid=agent-tools] .chip`);

test("live workspaces while the run goes on, the final result with the agent's files at its end, confined", async () => {
  const box = await makeSandbox();
  const release = join(box.cwd, "release");
  await writeFile(join(box.cwd, "team.yaml"), toolsTeam(release));
  // Outside every workspace: a symlink to it must not be followed.
  await writeFile(join(box.cwd, "secret.txt"), "not for the page\n");
  cli = await startWebCli(["--config", "team.yaml", "Plan the release"], box);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(cli.url);

  // The writer wrote plan.md with a real write_file call and now runs its command.
  await expect
    .poll(() => chips(page, "writer").allTextContents(), { timeout: 60_000 })
    .toEqual(["running execute_command", "write_file ×1"]);

  await page.keyboard.press("w");
  const groups = page.getByTestId("workspace-group");
  // The reviewer has answered (its empty workspace was copied); the writer has not yet.
  await expect
    .poll(() => groups.allTextContents(), { timeout: 30_000 })
    .toEqual(["writerlive", "reviewerliveagent2.1"]);
  expect(await page.locator("[data-testid=workspace-root].active").getAttribute("data-root")).toBe(
    "writer/live",
  );
  const preview = page.getByTestId("file-preview");
  await page.locator("[data-testid=tree-item][data-path='plan.md']").click();
  await expect
    .poll(() => preview.locator("h1").textContent(), { timeout: 30_000 })
    .toBe("Release plan");
  expect(await preview.locator("li").allTextContents()).toEqual([
    "Freeze the branch.",
    "Run the checks.",
  ]);
  await screenshot(page, "workspace-live");

  // The live root is the writer's workspace under .coord/workspaces/<run>/.
  const view = (await (await fetch(`${cli.url}api/session`)).json()) as View;
  const key = view.turns[0]!.key.split("/").map(encodeURIComponent).join("/");
  const roots = (await (await fetch(`${cli.url}api/runs/${key}/roots`)).json()) as Root[];
  const liveWriter = roots.find((root) => root.id === "writer/live")!;
  expect(liveWriter.path).toMatch(/\/\.coord\/workspaces\/run_\d{8}_\d{6}\/writer_ws$/);

  const files = (root: string, path: string) =>
    fetch(
      `${cli!.url}api/runs/${key}/files?root=${encodeURIComponent(root)}&path=${encodeURIComponent(path)}`,
    );
  // A symlink inside the workspace that leads out (put there by the test, as an agent's command
  // could) is listed but never read, like `..` and absolute paths.
  await symlink(join(box.cwd, "secret.txt"), join(liveWriter.path, "leak.txt"));
  expect((await files("writer/live", "plan.md")).status).toBe(200);
  for (const path of ["leak.txt", "../../../../secret.txt", "/etc/passwd", "../reviewer_ws"]) {
    expect((await files("writer/live", path)).status).toBe(403);
  }
  // A FIFO in the workspace (as an agent's `mkfifo` makes) answers an error at once, and the page
  // keeps answering: before, each preview held a thread until the UI froze.
  execFileSync("mkfifo", [join(liveWriter.path, "ff")]);
  for (let attempt = 0; attempt < 6; attempt++) {
    const fifo = await files("writer/live", "ff");
    expect(fifo.status).toBe(400);
    expect(((await fifo.json()) as { error: string }).error).toBe(
      "ff is a FIFO (named pipe): only regular files are previewed",
    );
  }
  expect((await files("writer/live", "plan.md")).status).toBe(200);
  // Only offered roots are roots: a path of the log or of the workspaces folder is not one.
  expect((await files("writer/..", "writer_ws/plan.md")).status).toBe(404);
  expect((await files("writer/snapshots/..", "events.jsonl")).status).toBe(404);

  // Released: the writer answers, both vote for it, it presents and writes its summary.
  await writeFile(release, "");
  await expect
    .poll(() => page.getByTestId("run-status").textContent(), { timeout: 60_000 })
    .toBe("completed");
  expect(await chips(page, "writer").allTextContents()).toEqual([
    "write_file ×2",
    "execute_command ×1",
  ]);
  // The live workspaces are gone from the tab; the final result comes first and is shown now.
  await expect
    .poll(() => groups.allTextContents(), { timeout: 30_000 })
    .toEqual(["Result (by writer)Final result", "writeragent1.1", "revieweragent2.1"]);
  expect(await page.locator("[data-testid=workspace-root].active").getAttribute("data-root")).toBe(
    "writer/snapshots/agent1.final",
  );
  const tree = page.getByTestId("tree-item");
  await expect
    .poll(() => tree.allTextContents(), { timeout: 30_000 })
    .toEqual(["▸ notes", "leak.txt", "plan.md"]);
  await page.locator("[data-testid=tree-item][data-path=notes]").click();
  await page.locator("[data-testid=tree-item][data-path='notes/summary.txt']").click();
  await expect
    .poll(() => preview.locator("pre").textContent(), { timeout: 30_000 })
    .toBe("Freeze, check, tag.\n");
  await screenshot(page, "workspace-final");

  // The final result is confined too; the live workspace is no longer offered.
  const final = "writer/snapshots/agent1.final";
  expect((await files(final, "notes/summary.txt")).status).toBe(200);
  for (const path of ["leak.txt", "../../../events.jsonl", "/etc/passwd", "notes/../../.."]) {
    expect((await files(final, path)).status).toBe(403);
  }
  expect((await files("writer/live", "plan.md")).status).toBe(404);
});
