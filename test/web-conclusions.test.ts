/**
 * The web page shows the answers grouped by conclusion, end to end: the built
 * CLI with `--web` runs a scripted team where two agents reach 18 in different words and a third
 * says 20, each voting for its own answer; in Debian's chromium the votes card shows the winner,
 * then one row per conclusion group with its votes and agents, the winner's marked.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import { CONCLUSION_QUESTION, CONCLUSION_TEAM_YAML } from "./support/conclusion-team.js";
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

test("the votes card lists the conclusion groups under the winner", async () => {
  const box = await makeSandbox();
  await writeFile(join(box.cwd, "team.yaml"), CONCLUSION_TEAM_YAML);
  cli = await startWebCli(["--config", "team.yaml", CONCLUSION_QUESTION], box);
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  await page.goto(cli.url);
  await expect
    .poll(() => page.getByTestId("run-status").textContent(), { timeout: 30_000 })
    .toBe("completed");

  // By answer the votes split 1–1–1; by conclusion 18 has two.
  for (const agent of ["alice", "bob", "carol"])
    expect(
      await page.locator(`[data-testid=vote-row][data-target=${agent}]`).getAttribute("data-count"),
    ).toBe("1");
  expect(await page.getByTestId("winner").textContent()).toBe("Winner: alice (agent1.1, 2 votes)");
  const rows = page.getByTestId("conclusion-group");
  expect(await rows.count()).toBe(2);
  const cells = async (index: number) =>
    (await rows.nth(index).locator("td").allTextContents()).map((text) => text.trim());
  expect(await cells(0)).toEqual(["18winner", "2", "alice, bob (agent1.1, agent2.1)"]);
  expect(await rows.nth(0).getAttribute("class")).toBe("won");
  expect(await cells(1)).toEqual(["20", "1", "carol (agent3.1)"]);
  expect(await rows.nth(1).getAttribute("class")).toBe("");
  expect(await page.getByTestId("conclusion-groups").locator("caption").textContent()).toBe(
    "Answers by conclusion",
  );
  await page.getByTestId("vote-tally").scrollIntoViewIfNeeded();
  await screenshot(page, "conclusion-groups");
  expect(await cli.stop()).toBe(0);
  cli = undefined;
});
