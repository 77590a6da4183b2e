/**
 * `coord --web` end to end: the built CLI with a question
 * against the fake OpenAI server, the page in Debian's chromium. Three agent cards stream text,
 * the tally shows who voted for whom, the winner and the final answer (Markdown, raw HTML shown
 * as text) appear; the run log is the one the page was fed from.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Browser } from "playwright-core";
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

// Every step waits on what the page shows; the test's own timeout is only a safety net for a
// loaded machine (Chromium, the built CLI and three agents' streams).
test(
  "three agents stream into their cards, the votes and winner show, the final answer renders",
  {
    timeout: 180_000,
  },
  async () => {
    const box = await makeSandbox();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = await fakeTeam(box.cwd, { beforeFinal: () => held });
    cli = await startWebCli(["--config", "team.yaml", "What is six times seven?"], box);
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(cli.url);

    const cards = page.getByTestId("agent-card");
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(3);
    for (const [agent, model] of [
      ["alice", "gpt-4o-mini"],
      ["bob", "gpt-4.1-mini"],
      ["carol", "gpt-4.1-nano"],
    ]) {
      const text = page.locator(
        `[data-testid=agent-card][data-agent=${agent}] [data-testid=agent-text]`,
      );
      await expect
        .poll(() => text.textContent(), { timeout: 30_000 })
        .toContain(`Thinking it over as ${model}`);
    }
    // Every agent voted for agent1 (alice): held before the final answer, the tally is complete.
    const aliceRow = page.locator("[data-testid=vote-row][data-target=alice]");
    await expect.poll(() => aliceRow.getAttribute("data-count"), { timeout: 30_000 }).toBe("3");
    expect(await aliceRow.textContent()).toContain("← alice, bob, carol");
    expect(
      await page.locator("[data-testid=vote-row][data-target=bob]").getAttribute("data-count"),
    ).toBe("0");
    await expect
      .poll(() => page.getByTestId("winner").textContent(), { timeout: 30_000 })
      .toContain("Winner: alice");
    await screenshot(page, "run-voting");

    release();
    const final = page.getByTestId("final-answer");
    await expect
      .poll(() => final.textContent(), { timeout: 30_000 })
      .toContain("The team agrees: 42.");
    await expect
      .poll(() => page.getByTestId("run-status").textContent(), { timeout: 30_000 })
      .toBe("completed");
    expect(await final.locator("h2").textContent()).toBe("Six times seven");
    expect(await final.locator("strong").textContent()).toBe("42");
    // Model output is sanitized: the script tag is text, not an element.
    expect(await final.locator("script").count()).toBe(0);
    expect(await final.textContent()).toContain("<script>alert(1)</script> stays text");
    expect(
      await page.locator("[data-testid=agent-card][data-agent=alice]").getAttribute("class"),
    ).toContain("winner");
    // The page held every event once: seq 1..n.
    const run = page.getByTestId("run");
    expect(await run.getAttribute("data-event-count")).toBe(
      await run.getAttribute("data-last-seq"),
    );
    await page.getByTestId("tab-timeline").click();
    await expect
      .poll(() => page.getByTestId("timeline").textContent(), { timeout: 30_000 })
      .toContain("Vote: alice (from bob");
    await screenshot(page, "run-done");
    // The view docs/web.md shows (docs/images/web-ui.png is a copy of it).
    await page.keyboard.press("Home");
    await screenshot(page, "web-ui", { fullPage: false });
    expect(await cli.stop()).toBe(0);
    cli = undefined;
  },
);
