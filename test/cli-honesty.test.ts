/**
 * Issue 31's smaller items, through the built CLI: an honest `coord logs open` when the opener
 * fails, `--single-agent WORD` that names no agent asks WORD, a bad `session_id:` named as the
 * config key, digits-only integers, `--log-dir` taking a bare log name, `coord logs --help`
 * without spec references, and `--web` opening the browser only with a question.
 */
import { chmod, cp, mkdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";
import { startWebCli, type WebCli } from "./support/web.js";

const RUNS = join(REPO_ROOT, "test", "fixtures", "logs", "runs");
const THREE = "log_20261121_095544_three_agents";

const TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      scripts:
        - match: "go"
          steps:
            - answer: "Going."
      steps:
        - answer: "Something else."
  - id: bob
    backend:
      type: scripted
      steps:
        - answer: "Bob here."
`;

async function sandboxWithRun() {
  const box = await makeSandbox();
  await cp(join(RUNS, THREE), join(box.cwd, "agent_outputs", THREE), { recursive: true });
  return box;
}

/** A folder holding an executable `name` that runs `body` (a shell script). */
async function fakeBin(home: string, name: string, body: string): Promise<string> {
  const bin = join(home, "bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, name), `#!/bin/sh\n${body}\n`);
  await chmod(join(bin, name), 0o755);
  return bin;
}

let cli: WebCli | undefined;
afterEach(async () => {
  await cli?.stop();
  cli = undefined;
});

describe.skipIf(process.platform === "win32" || process.platform === "darwin")(
  "coord logs open when the opener fails",
  () => {
    test("xdg-open exiting 3: says so, exits 2, --json reports opened false with the reason", async () => {
      const box = await sandboxWithRun();
      const bin = await fakeBin(box.home, "xdg-open", "exit 3");
      const env = { PATH: `${bin}:${process.env.PATH ?? ""}` };
      const dir = join(box.cwd, "agent_outputs", THREE);
      const text = await runCli(["logs", "open"], { ...box, env });
      expect(text.code).toBe(2);
      expect(text.stdout).toBe(`${dir}\n`);
      expect(text.stdout).not.toContain("Opened");
      expect(text.stderr).toBe(
        "coord: could not open it: xdg-open exited with code 3; the log directory is printed above\n",
      );
      const json = await runCli(["logs", "open", "--json"], { ...box, env });
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toEqual({
        version: 1,
        log_dir: dir,
        opened: false,
        opener: "xdg-open",
        reason: "xdg-open exited with code 3",
      });
    });

    test("a bare log name is taken by --log-dir, as by export and viewer", async () => {
      const box = await sandboxWithRun();
      const marker = join(box.home, "opened.txt");
      const bin = await fakeBin(box.home, "xdg-open", `echo "$1" > "${marker}"`);
      const result = await runCli(["logs", "open", "--log-dir", THREE], {
        ...box,
        env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
      });
      const dir = join(box.cwd, "agent_outputs", THREE);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`Opened ${dir} with xdg-open\n`);
      const summary = await runCli(["logs", "summary", "--log-dir", THREE, "--json"], box);
      expect(summary.code).toBe(0);
      expect((JSON.parse(summary.stdout) as { log_dir: string }).log_dir).toBe(dir);
    });
  },
);

describe("smaller command-line fixes", () => {
  test("--single-agent WORD that names no agent is the question, asked of the first agent", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), TEAM);
    const result = await runCli(["--config", "team.yaml", "--single-agent", "go"], box);
    expect(result.stderr).not.toContain("no question");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Going.\n");
    // An agent's id still picks that agent (and then needs a question).
    const bob = await runCli(["--config", "team.yaml", "--single-agent", "bob", "Who?"], box);
    expect(bob.stdout).toBe("Bob here.\n");
  });

  test("a bad session_id: in the config is reported as the config key, not --session-id", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), `${TEAM}session_id: session_19990101_000000\n`);
    const result = await runCli(["--config", "team.yaml", "Hello?"], box);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `coord: session_id: session_19990101_000000 (in ${join(box.cwd, "team.yaml")}): no such session`,
    );
    expect(result.stderr).not.toContain("--session-id");
  });

  test.each(["1e1", "0x2", "2.0", " 2"])(
    "--plan-chunks %j is refused: digits only",
    async (value) => {
      const box = await makeSandbox();
      const result = await runCli(
        ["--config", "@examples/scripted_planning", "--plan", "--plan-chunks", value, "Q?"],
        box,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `--plan-chunks must be an integer > 0, not ${JSON.stringify(value)}`,
      );
      expect(existsSync(join(box.cwd, ".coord"))).toBe(false);
    },
  );

  test("coord logs --help names no spec section", async () => {
    const box = await makeSandbox();
    const result = await runCli(["logs", "--help"], box);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Summaries of run logs");
    expect(result.stdout).not.toMatch(/\(spec[^)]*\)/);
  });
});

test("logs analyze --ui automation prints the automation lines on stdout, not the trace", async () => {
  const box = await sandboxWithRun();
  await writeFile(
    join(box.cwd, "analyst.yaml"),
    `agents:\n  - id: analyst\n    backend:\n      type: scripted\n      steps:\n        - answer: "A short report."\n`,
  );
  const result = await runCli(
    ["logs", "analyze", "--mode", "self", "--config", "analyst.yaml", "--ui", "automation"],
    box,
  );
  expect(result.code).toBe(0);
  const dir = join(box.cwd, "agent_outputs", THREE);
  const keys = result.stdout
    .trimEnd()
    .split("\n")
    .map((line) => line.split(":")[0]);
  expect(keys).toEqual([
    "LOG_DIR",
    "STATUS",
    "QUESTION",
    "WINNER",
    "ANSWER_FILE",
    "DURATION",
    "COMPLETED",
  ]);
  expect(result.stdout).toContain(`LOG_DIR: ${join(dir, "analysis_logs")}`);
  expect(result.stdout).toContain(`ANSWER_FILE: ${join(dir, "ANALYSIS_REPORT.md")}\n`);
  expect(result.stdout).toContain("COMPLETED: true\n");
  // No trace lines anywhere: stderr has only the command's own [system] lines.
  expect(result.stderr).not.toContain("[analyst]");
  expect(result.stderr).not.toContain("[orchestrator]");
  expect(existsSync(join(dir, "ANALYSIS_REPORT.md"))).toBe(true);
});

describe("coord --web and the browser", () => {
  /** A fake browser ($BROWSER, which xdg-open runs without a desktop) that notes the URL. */
  async function browserEnv(home: string) {
    const marker = join(home, "browser.txt");
    const bin = await fakeBin(home, "fake-browser", `echo "$1" >> "${marker}"`);
    return {
      marker,
      env: {
        BROWSER: join(bin, "fake-browser"),
        DISPLAY: "",
        WAYLAND_DISPLAY: "",
        XDG_CURRENT_DESKTOP: "",
      },
    };
  }

  test.skipIf(process.platform !== "linux")(
    "without a question no browser opens; with one it does",
    async () => {
      const box = await makeSandbox();
      await writeFile(join(box.cwd, "team.yaml"), TEAM);
      const { marker, env } = await browserEnv(box.home);
      cli = await startWebCli(["--config", "team.yaml"], {
        ...box,
        env,
        command: ["--web", "--web-port", "0"],
      });
      // The page is served and answers; the browser would have been started by now.
      expect((await fetch(`${cli.url}api/session`)).status).toBe(200);
      expect(await cli.stop()).toBe(0);
      cli = undefined;
      expect(existsSync(marker)).toBe(false);

      cli = await startWebCli(["--config", "team.yaml", "go"], {
        ...box,
        env,
        command: ["--web", "--web-port", "0"],
      });
      await expect.poll(() => existsSync(marker), { timeout: 15_000 }).toBe(true);
    },
    60_000,
  );
});
