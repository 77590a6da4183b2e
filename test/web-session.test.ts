/**
 * `coord --web` as a session (docs/web.md): started with no question it shows an empty page; a
 * question runs turn 1, a second one on the same page continues the session (the agents see the
 * history); "New session" empties the page and the session list opens the earlier one.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
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

interface View {
  id: string | null;
  turns: { key: string; logDir: string; status: string }[];
}

test("no question: an empty page; two questions are two turns of one session; sessions reopen", async () => {
  const box = await makeSandbox();
  const prompts: string[] = [];
  server = await fakeTeam(box.cwd, { onRequest: (text) => prompts.push(text) });
  cli = await startWebCli(["--config", "team.yaml"], box);
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(cli.url);
  await page.getByTestId("empty-session").waitFor({ timeout: 30_000 });
  expect(await page.getByTestId("session-id").textContent()).toBe("new session");
  await screenshot(page, "session-empty");

  await page.keyboard.press("/");
  await page.keyboard.type("What is six times seven?");
  await page.keyboard.press("Control+Enter");
  const final = page.getByTestId("final-answer");
  await expect
    .poll(() => final.textContent(), { timeout: 30_000 })
    .toContain("The team agrees: 42.");
  await expect.poll(() => page.getByTestId("ask").isDisabled(), { timeout: 30_000 }).toBe(true);
  await page.getByTestId("question-input").fill("Double it");
  await expect.poll(() => page.getByTestId("ask").isEnabled(), { timeout: 30_000 }).toBe(true);
  const promptsBefore = prompts.length;
  await page.getByTestId("ask").click();
  await expect.poll(() => page.getByTestId("turn-item").count(), { timeout: 30_000 }).toBe(2);
  await expect
    .poll(() => final.textContent(), { timeout: 30_000 })
    .toContain("The team agrees: 84.");
  await expect
    .poll(() => page.getByTestId("run-status").textContent(), { timeout: 30_000 })
    .toBe("completed");
  // Turn 2's prompts carried turn 1 as history.
  const turnTwo = prompts.slice(promptsBefore);
  expect(turnTwo.length).toBeGreaterThan(0);
  for (const text of turnTwo) {
    expect(text).toContain("What is six times seven?");
    expect(text).toContain("The team agrees: **42**.");
  }
  await screenshot(page, "session-two-turns");

  const view = (await (await fetch(`${cli.url}api/session`)).json()) as View;
  expect(view.turns.map((turn) => turn.status)).toEqual(["completed", "completed"]);
  const registry = JSON.parse(
    await readFile(join(box.home, ".coord", "sessions.json"), "utf8"),
  ) as { sessions: { id: string; turns: number }[] };
  expect(registry.sessions).toEqual([expect.objectContaining({ id: view.id, turns: 2 })]);
  // Both turns were logged in the session's one log directory.
  expect(view.turns[1]!.logDir).toContain("turn_2");
  expect(view.turns[0]!.logDir.split("turn_1")[0]).toBe(view.turns[1]!.logDir.split("turn_2")[0]);

  // [ goes back to turn 1.
  await page.keyboard.press("[");
  await expect.poll(() => final.textContent(), { timeout: 30_000 }).toContain("42");

  // A new session empties the page; the session list opens the earlier one again.
  await page.keyboard.press("n");
  await page.getByTestId("empty-session").waitFor({ timeout: 30_000 });
  // A new session puts the cursor in the question box; Escape leaves it for the shortcuts.
  expect(await page.evaluate("document.activeElement?.tagName")).toBe("TEXTAREA");
  await page.keyboard.press("Escape");
  await page.keyboard.press("s");
  const item = page.locator(`[data-testid=session-item][data-session=${view.id}]`);
  await item.waitFor({ timeout: 30_000 });
  expect(await item.textContent()).toContain("What is six times seven?");
  expect(await item.textContent()).toContain("2 turns");
  await screenshot(page, "session-list");
  await item.click();
  await expect.poll(() => page.getByTestId("turn-item").count(), { timeout: 30_000 }).toBe(2);
  await expect.poll(() => final.textContent(), { timeout: 30_000 }).toContain("84");
  expect(await page.getByTestId("session-id").textContent()).toBe(view.id);

  // ? lists the shortcuts.
  await page.keyboard.press("?");
  expect(await page.getByTestId("help").textContent()).toContain("previous / next turn");
  await page.keyboard.press("Escape");
  expect(await page.getByTestId("help").count()).toBe(0);
});
