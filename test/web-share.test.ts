/**
 * The share viewer page (docs/web.md "Share viewer"): dist/web/share/ loads
 * `?gist=<id>` from GitHub's gist API and renders the coordination timeline, answers, votes, tool
 * usage and final answer with the live page's components. Chromium's network is stubbed: the
 * page's files come from dist/web, the API answers with a recorded gist (test/fixtures/share),
 * and any other request is refused and recorded (no CDN, no call-outs).
 */
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO_ROOT } from "./support/cli.js";
import { launchChromium, screenshot } from "./support/web.js";

const VIEWER = "https://viewer.coord.test";
const GIST = join(REPO_ROOT, "test", "fixtures", "share", "gist.json");
const RUN = join(REPO_ROOT, "test", "fixtures", "logs", "runs", "log_20261121_095547_multi_turn");
const ID = "5f1c0ffee0ddba11ab1e5eed00c0ffee";
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A page whose network is the viewer's files, the recorded gist and its raw file only. */
async function stubbedPage(options: { gistStatus?: number } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const refused: string[] = [];
  const apiCalls: string[] = [];
  await page.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === VIEWER) {
      const path = url.pathname.endsWith("/") ? `${url.pathname}index.html` : url.pathname;
      const body = await readFile(join(REPO_ROOT, "dist", "web", path)).catch(() => undefined);
      return body === undefined
        ? route.fulfill({ status: 404, body: "not found" })
        : route.fulfill({ body, contentType: TYPES[extname(path)] ?? "application/octet-stream" });
    }
    if (url.origin === "https://api.github.com") {
      apiCalls.push(url.pathname);
      if (url.pathname !== `/gists/${ID}` || options.gistStatus !== undefined) {
        return route.fulfill({
          status: options.gistStatus ?? 404,
          contentType: "application/json",
          body: JSON.stringify({ message: "Not Found" }),
        });
      }
      return route.fulfill({ body: await readFile(GIST), contentType: "application/json" });
    }
    if (
      url.origin === "https://gist.githubusercontent.com" &&
      url.pathname.endsWith("turn_2__attempt_2__events.jsonl")
    ) {
      return route.fulfill({
        body: await readFile(join(RUN, "turn_2", "attempt_2", "events.jsonl")),
        contentType: "text/plain",
      });
    }
    refused.push(url.href);
    return route.abort();
  });
  return { page, refused, apiCalls };
}

async function open(page: Page, query: string) {
  await page.goto(`${VIEWER}/share/${query}`);
}

test("renders a shared session: turns, votes, answers, timeline, tool usage and final answer", async () => {
  const { page, refused, apiCalls } = await stubbedPage();
  await open(page, `?gist=${ID}`);
  const final = page.getByTestId("final-answer");
  // The newest attempt (turn 2, attempt 2, whose events came from the raw URL) opens first.
  await expect
    .poll(() => final.textContent(), { timeout: 30_000 })
    .toContain(
      (await readFile(join(RUN, "turn_2", "attempt_2", "final_answer.md"), "utf8"))
        .trim()
        .slice(0, 40),
    );
  expect(apiCalls).toEqual([`/gists/${ID}`]);
  expect(await page.getByTestId("turn-item").count()).toBe(3);
  expect(await page.getByTestId("agent-card").count()).toBe(2);
  expect(await page.getByTestId("run-status").textContent()).toBe("completed");
  const winner = await page.getByTestId("winner").textContent();
  expect(winner).toMatch(/^Winner: (ana|ben) \(agent\d\.\d+, \d votes?\)$/);
  await screenshot(page, "share-turn-2");

  // Turn 1: its question, votes and final answer.
  await page.getByTestId("turn-item").first().click();
  await expect
    .poll(() => page.getByTestId("question").textContent(), { timeout: 30_000 })
    .toBe("Which database should our team app use?");
  await expect
    .poll(() => final.textContent(), { timeout: 30_000 })
    .toContain(
      (await readFile(join(RUN, "turn_1", "attempt_1", "final_answer.md"), "utf8"))
        .trim()
        .slice(0, 40),
    );
  const rows = page.getByTestId("vote-row");
  expect(await rows.count()).toBe(2);
  // Turn 1 ended with both votes for ana (the fixture's status.json says so too).
  expect(await rows.nth(0).getAttribute("data-count")).toBe("2");
  expect(await rows.nth(1).getAttribute("data-count")).toBe("0");
  const timeline = await page.getByTestId("timeline").textContent();
  expect(timeline).toContain("Question: Which database should our team app use?");
  expect(timeline).toContain("Vote:");
  await page.keyboard.press("a");
  expect(await page.getByTestId("answers").textContent()).toContain("agent1.1");
  await page.keyboard.press("u");
  expect(await page.getByTestId("usage").textContent()).toContain("Total");
  await page.getByTestId("run-files").locator("summary").first().click();
  expect(await page.getByTestId("run-files").textContent()).toContain("execution_metadata.yaml");
  expect(await page.getByTestId("skipped").textContent()).toBe(
    "Not shared: ana/snapshots/agent1.final/diagram.png (binary)",
  );
  // The workspace snapshots shared with the turn, Markdown rendered.
  const workspace = page.getByTestId("shared-workspace");
  await workspace.locator("summary").first().click();
  expect(await workspace.locator("summary").first().textContent()).toBe("Workspace files (2)");
  const schema = workspace.locator("[data-path='ana/snapshots/agent1.final/schema.md']");
  await schema.locator("summary").click();
  expect(await schema.locator("h1").textContent()).toBe("Schema plan");
  await screenshot(page, "share-turn-1");

  // Turn 2, attempt 1: the orchestrator timeout, no answer, no workspace shared.
  await page.getByTestId("turn-item").nth(1).click();
  await expect
    .poll(() => page.getByTestId("run-status").textContent(), { timeout: 30_000 })
    .toBe("timeout");
  expect(await page.getByTestId("shared-workspace").count()).toBe(0);
  expect(refused).toEqual([]);
});

test("a missing gist, a gist that is not a coord session and no id say so", async () => {
  const missing = await stubbedPage({ gistStatus: 404 });
  await open(missing.page, `?gist=${ID}`);
  await expect
    .poll(() => missing.page.getByTestId("share-error").textContent(), { timeout: 30_000 })
    .toContain(`gist ${ID} not found`);

  const none = await stubbedPage();
  await open(none.page, "");
  expect(await none.page.getByTestId("share-error").textContent()).toContain(
    "No gist in the address",
  );
  expect(none.apiCalls).toEqual([]);

  const other = await stubbedPage();
  await other.page.route("https://api.github.com/**", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({
        id: ID,
        files: { "notes.txt": { filename: "notes.txt", content: "hi" } },
      }),
    }),
  );
  await open(other.page, `?gist=${ID}`);
  await expect
    .poll(() => other.page.getByTestId("share-error").textContent(), { timeout: 30_000 })
    .toContain("is not a coord share (it has no coord_manifest.json)");
});
