/**
 * `coord --web` catching up (docs/web.md "Reconnecting"): a page reloaded mid-run rebuilds the
 * run from the start, and a page whose WebSocket drops resubscribes from the last seq it holds;
 * either way it ends holding every event of events.jsonl exactly once.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import type { FakeOpenAIServer } from "./support/fake-openai-server.js";
import { fakeTeam, launchChromium, screenshot, startWebCli, type WebCli } from "./support/web.js";

let browser: Browser;
let server: FakeOpenAIServer | undefined;
let cli: WebCli | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterEach(async () => {
  await cli?.stop();
  await server?.close();
  cli = undefined;
  server = undefined;
});
afterAll(async () => {
  await browser?.close();
});

/** A run held before its final answer, and a function that lets it finish. */
async function heldRun() {
  const box = await makeSandbox();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server = await fakeTeam(box.cwd, { beforeFinal: () => held });
  cli = await startWebCli(["--config", "team.yaml", "What is six times seven?"], box);
  return { box, release };
}

/** Waits for the run to end and checks the page holds exactly the logged events. */
async function expectAllEventsOnce(page: Page, url: string) {
  await expect
    .poll(() => page.getByTestId("run-status").textContent(), { timeout: 30_000 })
    .toBe("completed");
  const view = (await (await fetch(`${url}api/session`)).json()) as {
    turns: { logDir: string }[];
  };
  const lines = (await readFile(join(view.turns[0]!.logDir, "events.jsonl"), "utf8"))
    .trim()
    .split("\n");
  const run = page.getByTestId("run");
  expect(await run.getAttribute("data-event-count")).toBe(String(lines.length));
  expect(await run.getAttribute("data-last-seq")).toBe(String(lines.length));
}

test("reloading mid-run catches up from the start", async () => {
  const { release } = await heldRun();
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(cli!.url);
  const alice = page.locator("[data-testid=vote-row][data-target=alice]");
  const status = page.getByTestId("run-status");
  // Held before the final answer: the votes are in and the winner is known; nothing changes now.
  await expect
    .poll(() => status.textContent(), { timeout: 30_000 })
    .toBe("writing the final answer");
  expect(await alice.getAttribute("data-count")).toBe("3");

  await page.reload();
  // The state is back from the events alone (the run is held: nothing new happened).
  await expect
    .poll(() => status.textContent(), { timeout: 30_000 })
    .toBe("writing the final answer");
  expect(await alice.getAttribute("data-count")).toBe("3");
  const text = page.locator("[data-testid=agent-card][data-agent=bob] [data-testid=agent-text]");
  expect(await text.textContent()).toContain("Thinking it over as gpt-4.1-mini");
  const run = page.getByTestId("run");
  expect(await run.getAttribute("data-event-count")).toBe(await run.getAttribute("data-last-seq"));
  await screenshot(page, "reload-caught-up");

  release();
  await expectAllEventsOnce(page, cli!.url);
});

test("a dropped WebSocket resubscribes from the last seq: nothing lost, nothing repeated", async () => {
  const { release } = await heldRun();
  const page = await browser.newPage();
  let connections = 0;
  let subscribedAfter: number[] = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    connections++;
    const first = connections === 1;
    const upstream = ws.connectToServer();
    let events = 0;
    ws.onMessage((message) => {
      const parsed = JSON.parse(String(message)) as { type: string; after?: number };
      if (parsed.type === "subscribe" && !first) subscribedAfter.push(parsed.after ?? -1);
      upstream.send(message);
    });
    upstream.onMessage((message) => {
      ws.send(message);
      if (first && String(message).includes('"type":"event"') && ++events === 25) {
        // Drop the page's connection mid-stream.
        void ws.close();
      }
    });
  });
  await page.goto(cli!.url);
  await expect.poll(() => connections, { timeout: 30_000 }).toBe(2);
  await expect.poll(() => subscribedAfter.length, { timeout: 30_000 }).toBe(1);
  // It asked for what followed the 25 events it held.
  expect(subscribedAfter).toEqual([25]);
  subscribedAfter = [];
  release();
  await expectAllEventsOnce(page, cli!.url);
  expect(await page.getByTestId("connection").textContent()).toBe("live");
});
