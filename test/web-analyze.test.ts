/**
 * `coord logs analyze --mode self --ui webui` (spec section 4.2): the analysis run shows in the
 * browser UI (a scripted analysis team on a fixture log), the report is written, and the page
 * stays up, taking no questions, until Ctrl+C.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeSandbox, REPO_ROOT } from "./support/cli.js";
import { launchChromium, screenshot, startWebCli, type WebCli } from "./support/web.js";

const RUN = "log_20261121_095544_three_agents";
const ANALYSTS = `
agents:
  - id: analyst
    backend:
      type: scripted
      steps:
        - delay_ms: 300
          answer: "Three agents agreed on alice's answer."
        - vote: agent1
          reason: "Complete."
        - text: "## Verdict\\n\\nThe run went **well**: three agents agreed."
  - id: reviewer
    backend:
      type: scripted
      steps:
        - answer: "Fine."
        - vote: agent1
          reason: "More specific."
`;

let browser: Browser;
let cli: WebCli | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await cli?.stop();
  await browser?.close();
});

test("the analysis runs in the web UI and its report is written", async () => {
  const box = await makeSandbox();
  await cp(
    join(REPO_ROOT, "test", "fixtures", "logs", "runs", RUN),
    join(box.cwd, "agent_outputs", RUN),
    {
      recursive: true,
    },
  );
  await writeFile(join(box.cwd, "analysts.yaml"), ANALYSTS);
  cli = await startWebCli(["--config", "analysts.yaml"], {
    ...box,
    command: [
      "logs",
      "analyze",
      "--mode",
      "self",
      "--ui",
      "webui",
      "--no-browser",
      "--web-port",
      "0",
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(cli.url);
  await expect.poll(() => page.getByTestId("agent-card").count(), { timeout: 30_000 }).toBe(2);
  const final = page.getByTestId("final-answer");
  await expect.poll(() => final.textContent(), { timeout: 30_000 }).toContain("The run went well");
  expect(await final.locator("strong").textContent()).toBe("well");
  expect(await page.getByTestId("read-only").textContent()).toContain(`Analysis of ${RUN}`);
  expect(await page.getByTestId("question-input").count()).toBe(0);
  await expect.poll(() => cli!.stderr(), { timeout: 30_000 }).toContain("The page stays open at");
  const report = await readFile(join(box.cwd, "agent_outputs", RUN, "ANALYSIS_REPORT.md"), "utf8");
  expect(report).toContain("The run went **well**");
  await screenshot(page, "analyze");
  expect(await cli.stop()).toBe(0);
  cli = undefined;
});
