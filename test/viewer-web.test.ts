/**
 * `coord viewer --web` end to end: the built CLI serves the viewer on
 * 127.0.0.1; Debian's chromium (playwright-core, never a downloaded browser) opens the page and
 * shows the xterm terminal with the panels, a key reaches the viewer, and a reload replays again.
 * The server refuses a foreign Host and a WebSocket from another origin, and stops on SIGINT.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:http";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, makeSandbox } from "./support/cli.js";

const CHROMIUM = "/usr/bin/chromium";
const THREE_AGENTS = new URL(
  "./fixtures/logs/runs/log_20261121_095544_three_agents",
  import.meta.url,
).pathname;

/** Where the screenshots go (looked at by whoever changes the viewer's screen). */
const SCREENSHOTS = join(tmpdir(), "coord-viewer-web-screenshots");
await mkdir(SCREENSHOTS, { recursive: true });

let server: ChildProcess | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
  if (server && server.exitCode === null) server.kill("SIGKILL");
  server = undefined;
});

/** Starts `coord viewer … --web --port 0` and resolves with its URL once it prints it. */
async function serve(args: string[]): Promise<{ url: string; exited: Promise<number | null> }> {
  const sandbox = await makeSandbox();
  const child = spawn(process.execPath, [CLI, "viewer", ...args, "--web", "--port", "0"], {
    cwd: sandbox.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: sandbox.home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = child;
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /Serving the viewer at (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl\+C to stop\)/.exec(
        output,
      );
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`the server exited: ${output}`)));
  });
  return { url, exited };
}

/** What the page's scripts see (the test's TypeScript has no DOM library). */
interface PageWindow {
  document: {
    querySelector(selector: string): { textContent: string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
    body: { dataset: Record<string, string | undefined> };
  };
}

/** Debian's chromium with the flags of the brief, and one 1100 × 700 page. */
async function openPage(): Promise<Page> {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return browser.newPage({ viewport: { width: 1100, height: 700 } });
}

/** The text of the xterm terminal's rows. */
function terminalText(page: Page): Promise<string> {
  return page.evaluate(() =>
    Array.from(
      (globalThis as unknown as PageWindow).document.querySelectorAll(".xterm-rows > div"),
      (row) => row.textContent,
    ).join("\n"),
  );
}

async function waitForTerminal(page: Page, text: string): Promise<string> {
  await page.waitForFunction(
    (wanted) =>
      (globalThis as unknown as PageWindow).document
        .querySelector(".xterm-rows")
        ?.textContent?.includes(wanted) === true,
    text,
    { timeout: 30_000 },
  );
  return terminalText(page);
}

/** A raw HTTP request to the server with chosen headers; resolves with the status. */
function statusOf(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { headers });
    req.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("upgrade", (_response, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on("error", reject);
    req.end();
  });
}

describe.runIf(existsSync(CHROMIUM))("coord viewer --web in Chromium", () => {
  test("the page shows the xterm terminal with the panels; q ends the viewer; a reload replays it again", async () => {
    const { url, exited } = await serve([THREE_AGENTS]);
    const page = await openPage();
    const failed: string[] = [];
    page.on("requestfailed", (failure) => failed.push(failure.url()));
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url);
    expect(await page.title()).toBe("coord viewer · log_20261121_095544_three_agents");
    // Instant: the first frame the page shows is the whole run, no replay before it.
    const screen = await waitForTerminal(page, "coord viewer · ");
    expect(screen).toContain("replay finished");
    expect(screen).not.toContain("replaying");
    expect(await page.locator(".xterm").count()).toBe(1);
    expect(screen).toContain(
      "coord viewer · log_20261121_095544_three_agents · turn 1 of 1 · attempt 1 of 1",
    );
    expect(screen).toContain("Winner alice");
    expect(screen).toContain("╭─ alice · planner-large · wrote the final answer · ★ winner ─");
    expect(screen).toContain("╭─ bob · fast-small · voted for alice ─");
    expect(screen).toContain("╭─ carol · fast-small · voted for alice ─");
    expect(screen).toContain('⚙ web_search {"query":"capital of France"}');
    expect(screen).toContain("✓ voted for alice (agent1.1): “More complete.”");
    expect(screen).toContain("── Final answer · alice (agent1.final) ──");
    expect(screen).toContain("The capital of France is Paris.");
    expect(screen).toContain("q quit");
    await page.screenshot({ path: join(SCREENSHOTS, "viewer-web-instant.png") });

    await page.keyboard.press("q");
    await page.waitForFunction(
      () => (globalThis as unknown as PageWindow).document.body.dataset.state === "closed",
      null,
      {
        timeout: 30_000,
      },
    );
    // xterm draws what it was written on its next frame: wait for the line, not just the state.
    expect(
      await waitForTerminal(page, "[exited with code 0: reload the page to view again]"),
    ).toContain("[exited with code 0: reload the page to view again]");

    await page.reload();
    expect(await waitForTerminal(page, "replay finished")).toContain("Winner alice");
    expect(failed).toEqual([]);

    server!.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  test("--replay-speed 1 in the page: the panels side by side across the page's width while the team votes; q stops it", async () => {
    const sandbox = await makeSandbox();
    const source = join(THREE_AGENTS, "turn_1", "attempt_1", "events.jsonl");
    const lines = (await readFile(source, "utf8")).split("\n").filter((line) => line !== "");
    const first = Date.parse((JSON.parse(lines[0]!) as { time: string }).time);
    const slow = lines.map((line) => {
      const event = JSON.parse(line) as { time: string };
      event.time = new Date(first + (Date.parse(event.time) - first) * 60).toISOString();
      return `${JSON.stringify(event)}\n`;
    });
    const attempt = join(sandbox.cwd, "log_20261121_095544_slow", "turn_1", "attempt_1");
    await mkdir(attempt, { recursive: true });
    await writeFile(join(attempt, "events.jsonl"), slow.join(""));
    const { url } = await serve([
      join(sandbox.cwd, "log_20261121_095544_slow"),
      "--replay-speed",
      "1",
    ]);
    const page = await openPage();
    await page.goto(url);
    const screen = await waitForTerminal(page, "replay ×1");
    expect(screen).not.toContain("replay finished");
    await waitForTerminal(page, "╭");
    const border = (await terminalText(page)).split("\n").find((row) => row.includes("╭"))!;
    // Three panels across the page: far wider than the 100 columns of the server's fallback.
    expect(border.match(/╭/g)).toHaveLength(3);
    expect(border.trimEnd().length).toBeGreaterThan(110);
    await page.keyboard.press("q");
    await page.waitForFunction(
      () => (globalThis as unknown as PageWindow).document.body.dataset.state === "closed",
      null,
      {
        timeout: 30_000,
      },
    );
    expect(await terminalText(page)).not.toContain("Winner");
  });

  test("refuses a Host that is not loopback and a WebSocket from another origin", async () => {
    const { url } = await serve([THREE_AGENTS]);
    const port = new URL(url).port;
    expect(await statusOf(url, "/", {})).toBe(200);
    expect(await statusOf(url, "/", { Host: `attacker.example:${port}` })).toBe(403);
    const upgrade = {
      Connection: "Upgrade",
      Upgrade: "websocket",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    };
    expect(await statusOf(url, "/pty", { ...upgrade, Origin: "http://attacker.example" })).toBe(
      403,
    );
    expect(await statusOf(url, "/pty", { ...upgrade, Origin: `http://127.0.0.1:${port}` })).toBe(
      101,
    );
    expect(await statusOf(url, "/assets/xterm.mjs", {})).toBe(200);
    expect(await statusOf(url, "/assets/..%2Fpackage.json", {})).toBe(404);
  });
});
