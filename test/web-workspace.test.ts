/**
 * The workspace browser of `coord --web` (docs/web.md "Workspace browser") in Debian chromium:
 * the snapshots a run log keeps (`<attempt dir>/<agent id>/snapshots/<label>/`, docs/tools.md
 * "Workspaces") show while the run goes on, grouped by agent, newest first; the chosen snapshot
 * stays chosen as new ones arrive; the final result shows when the run ends; text, Markdown and
 * images preview; nothing outside a snapshot can be read.
 *
 * The snapshot folders are written by the test into the run's log directory, as the workspace
 * copy of issue 10 (branch `tools`) lays them out: this branch's agents have no file tools yet.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import type { FakeOpenAIServer } from "./support/fake-openai-server.js";
import { fakeTeam, launchChromium, screenshot, startWebCli, type WebCli } from "./support/web.js";

let browser: Browser;
let server: FakeOpenAIServer | undefined;
let cli: WebCli | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await cli?.stop();
  await server?.close();
  await browser?.close();
});

/** A 2×2 red PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==",
  "base64",
);

async function put(path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

interface View {
  turns: { key: string; logDir: string }[];
}

test("snapshots show as the run goes on, the final result at its end, confined to each snapshot", async () => {
  const box = await makeSandbox();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server = await fakeTeam(box.cwd, { beforeFinal: () => held });
  cli = await startWebCli(["--config", "team.yaml", "Write the plan"], box);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(cli.url);
  await page.getByTestId("agent-card").first().waitFor({ timeout: 30_000 });
  await page.keyboard.press("w");
  await page.getByTestId("workspace-empty").waitFor({ timeout: 30_000 });
  expect(await page.getByTestId("workspace-empty").textContent()).toContain(
    "No workspace snapshots yet",
  );

  // alice's answer agent1.1 is accepted: her workspace is copied into the run log.
  const view = (await (await fetch(`${cli.url}api/session`)).json()) as View;
  const logDir = view.turns[0]!.logDir;
  const snapshot = (agent: string, label: string, path: string) =>
    join(logDir, agent, "snapshots", label, path);
  await put(snapshot("alice", "agent1.1", "docs/plan.md"), "# The plan\n\n1. Ask\n2. **Vote**\n");
  await put(snapshot("alice", "agent1.1", "notes.txt"), "plain notes\n");
  await put(snapshot("alice", "agent1.1", "pixel.png"), PNG);

  const roots = page.getByTestId("workspace-root");
  await expect.poll(() => roots.allTextContents(), { timeout: 30_000 }).toEqual(["agent1.1"]);
  expect(await page.getByTestId("workspace-group").allTextContents()).toEqual(["aliceagent1.1"]);
  await page.locator("[data-testid=tree-item][data-path=docs]").click();
  await page.locator("[data-testid=tree-item][data-path='docs/plan.md']").click();
  const preview = page.getByTestId("file-preview");
  await expect
    .poll(() => preview.locator("h1").textContent(), { timeout: 30_000 })
    .toBe("The plan");
  expect(await preview.locator("strong").textContent()).toBe("Vote");
  await page.locator("[data-testid=tree-item][data-path='pixel.png']").click();
  // The image is served and decoded (its natural width, read in the page).
  const img = preview.locator("img");
  await img.waitFor({ timeout: 30_000 });
  await expect
    .poll(
      () =>
        img.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
      { timeout: 30_000 },
    )
    .toBe(2);
  await page.locator("[data-testid=tree-item][data-path='notes.txt']").click();
  await expect
    .poll(() => preview.locator("pre").textContent(), { timeout: 30_000 })
    .toBe("plain notes\n");

  // bob's answer agent2.1 is accepted: his snapshot joins, and the one being read stays chosen.
  await put(snapshot("bob", "agent2.1", "notes.txt"), "bob's notes\n");
  const groups = page.getByTestId("workspace-group");
  await expect
    .poll(() => groups.allTextContents(), { timeout: 30_000 })
    .toEqual(["aliceagent1.1", "bobagent2.1"]);
  expect(await page.locator("[data-testid=workspace-root].active").getAttribute("data-root")).toBe(
    "alice/snapshots/agent1.1",
  );
  expect(await preview.locator("pre").textContent()).toBe("plain notes\n");
  await page.locator("[data-testid=workspace-root][data-root='bob/snapshots/agent2.1']").click();
  await page.locator("[data-testid=tree-item][data-path='notes.txt']").click();
  await expect
    .poll(() => preview.locator("pre").textContent(), { timeout: 30_000 })
    .toBe("bob's notes\n");
  await screenshot(page, "workspace");

  // Nothing outside the chosen snapshot is read: not the run log, not the system.
  const key = view.turns[0]!.key.split("/").map(encodeURIComponent).join("/");
  const files = (root: string, path: string) =>
    fetch(
      `${cli!.url}api/runs/${key}/files?root=${encodeURIComponent(root)}&path=${encodeURIComponent(path)}`,
    );
  for (const path of ["../../../events.jsonl", "/etc/passwd", "docs/../../../../status.json"]) {
    expect((await files("alice/snapshots/agent1.1", path)).status).toBe(403);
  }
  // Only the offered snapshots are roots: a path of the log is not one.
  expect((await files("alice/snapshots/..", "events.jsonl")).status).toBe(404);

  // alice (the winner) presents: her workspace after the final answer is the run's result.
  await put(snapshot("alice", "agent1.final", "result.md"), "# Result\n\nThe team's file.\n");
  release();
  await expect
    .poll(() => page.getByTestId("run-status").textContent(), { timeout: 30_000 })
    .toBe("completed");
  await expect
    .poll(() => page.getByTestId("workspace-group").allTextContents(), { timeout: 30_000 })
    .toEqual(["Result (by alice)Final result", "aliceagent1.1", "bobagent2.1"]);
  await page
    .locator("[data-testid=workspace-root][data-root='alice/snapshots/agent1.final']")
    .click();
  await page.locator("[data-testid=tree-item][data-path='result.md']").click();
  await expect.poll(() => preview.locator("h1").textContent(), { timeout: 30_000 }).toBe("Result");
  await screenshot(page, "workspace-final");
});
