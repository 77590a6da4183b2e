/**
 * The first run end to end (spec section 1 "First-time setup wizard", section 2 `--select`): the
 * built CLI in a real pseudo-terminal (tmux) with an empty HOME and no keys, answering the
 * wizard's questions with keys as a user would; a question then goes through the fake OpenAI
 * server, reached through OPENAI_BASE_URL (which the key check and the `openai` backend honour).
 * Without a terminal nothing is asked.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseConfigText } from "../src/config/index.js";
import { CLI, makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from "./support/fake-openai-server.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

let pane: TmuxPane | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  pane?.close();
  await server?.close();
  server = undefined;
});

/**
 * Starts `coord …` in a 120×45 pane with only PATH, TERM, HOME and `env` in its environment (no
 * provider key leaks in); the pane then prints EXIT=<code> and stays open.
 */
function startCoord(
  box: { cwd: string; home: string },
  args: string,
  env: Record<string, string> = {},
): TmuxPane {
  const variables = Object.entries({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    TERM: "xterm-256color",
    HOME: box.home,
    ...env,
  })
    .map(([name, value]) => `${name}='${value}'`)
    .join(" ");
  const command =
    `cd '${box.cwd}' && env -i ${variables} '${process.execPath}' '${CLI}' ${args}; ` +
    "echo EXIT=$?; sleep 60";
  pane = new TmuxPane(command, { columns: 120, rows: 45 });
  return pane;
}

/** Waits until `text` appears at least `count` times on the screen and in its scrollback. */
async function waitForCount(tty: TmuxPane, text: string, count: number): Promise<string> {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return tty.waitFor(new RegExp(`(${escaped}[\\s\\S]*){${count}}`));
}

const SCRIPTED = (answer: string) => `
agents:
  - id: first
    backend:
      type: scripted
      steps:
        - answer: "${answer}"
        - vote: agent1
        - text: "${answer}"
  - id: second
    backend:
      type: scripted
      steps:
        - answer: "${answer} (second)"
        - vote: agent1
`;

describe.skipIf(!hasTmux())("the first run in a terminal", () => {
  test("no keys: the key is asked, checked and saved 0600; a template becomes the default; the chat answers through the fake server", async () => {
    server = await startFakeOpenAIServer(coordinationHandler());
    const box = await makeSandbox();
    const tty = startCoord(box, "", { OPENAI_BASE_URL: server.url });

    await tty.waitFor("No API key found in the environment or in ~/.config/coord/.env.");
    await tty.waitFor("Which providers will you use?");
    tty.keys("Space", "Enter"); // OpenAI is first
    await tty.waitFor("OpenAI API key (OPENAI_API_KEY)");
    tty.type("sk-wizard-test");
    await tty.waitFor("Check the keys now?");
    tty.keys("Enter"); // Yes
    await tty.waitFor("OpenAI: the key works.");
    const saved = await tty.waitFor("Saved 1 key to ~/.config/coord/.env (readable only by you).");
    expect(saved).not.toContain("sk-wizard-test");

    const envFile = join(box.home, ".config", "coord", ".env");
    expect(await readFile(envFile, "utf8")).toBe("OPENAI_API_KEY=sk-wizard-test\n");
    expect((await stat(envFile)).mode & 0o777).toBe(0o600);

    await tty.waitFor("How do you want to set up your team?");
    tty.keys("Enter"); // Start from a template
    await tty.waitFor("Which template?");
    tty.keys("Enter"); // Simple Q&A
    const shown = await tty.waitFor("Save it where?");
    expect(shown).toContain("# Simple Q&A:");
    expect(shown).toContain("model: gpt-4o-mini");
    tty.keys("Enter"); // As your default
    await tty.waitFor("Saved ~/.config/coord/config.yaml.");
    await tty.waitFor("Ask the team, or /help");

    const configPath = join(box.home, ".config", "coord", "config.yaml");
    const { config } = parseConfigText(await readFile(configPath, "utf8"), { env: {} });
    expect(config.agents.map((agent) => agent.backend.type)).toEqual([
      "openai",
      "openai",
      "openai",
    ]);

    tty.type("What is six times seven?");
    const answered = await tty.waitFor(/Final answer: The answer is 42\.|Turn failed/, 60_000);
    expect(answered).not.toContain("Turn failed");
    await tty.waitFor("turn 2 · 2 messages of history");
    tty.type("/quit");
    expect(await tty.waitFor(/EXIT=\d+/)).toContain("EXIT=0");

    const calls = server.requests.map((request) => `${request.method} ${request.path}`);
    expect(calls[0]).toBe("GET /v1/models");
    expect(calls).toContain("POST /v1/responses");
    expect(
      server.requests.every((request) => request.headers.authorization === "Bearer sk-wizard-test"),
    ).toBe(true);
  });

  test("browsing an example and answering Save as default? yes writes it, then the chat runs it", async () => {
    const box = await makeSandbox();
    const tty = startCoord(box, "", { OPENAI_API_KEY: "sk-from-env" });
    await tty.waitFor("API keys found: OPENAI_API_KEY.");
    await tty.waitFor("How do you want to set up your team?");
    tty.keys("Down", "Enter"); // Browse ready-made configs
    const categories = await tty.waitFor("Which configs?");
    expect(categories).toContain("Examples: getting started");
    tty.keys("Enter");
    const configs = await tty.waitFor("Examples: getting started: which config?");
    expect(configs).toContain("single_agent — 1 agent: openai gpt-4o-mini");
    expect(configs).toContain("scripted_team — 3 agents: scripted ×3");
    tty.keys("Down", "Down", "Enter"); // scripted_team
    await tty.waitFor("Save as default?");
    tty.keys("Enter"); // Yes
    await tty.waitFor("Saved scripted_team as ~/.config/coord/config.yaml.");
    // scripted_team says `display_type: simple`: the chat is the plain line prompt.
    await tty.waitFor("Ask the team a question; /help lists commands.");
    expect(await readFile(join(box.home, ".config", "coord", "config.yaml"), "utf8")).toBe(
      await readFile(join(REPO_ROOT, "examples", "scripted_team.yaml"), "utf8"),
    );
    expect(existsSync(join(box.home, ".config", "coord", ".env"))).toBe(false);
    tty.type("What is 2 + 2?");
    // The turn's last line: the prompt takes /quit only once the turn has ended.
    const turn = await tty.waitFor("turn 1 · winner alice", 60_000);
    expect(turn).toContain("── alice (agent1.final) ──\n2 + 2 = 4.");
    tty.type("/quit");
    expect(await tty.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
  });

  test("a custom team: the next agent's URL and model are hints (typing replaces, Enter takes them), a bad URL is refused in place, agents named by provider", async () => {
    const box = await makeSandbox();
    const tty = startCoord(box, "", { OPENAI_API_KEY: "sk-from-env" });
    await tty.waitFor("How do you want to set up your team?", 30_000);
    tty.keys("Enter"); // Start from a template
    await tty.waitFor("Which template?");
    tty.keys("Up", "Enter"); // Custom team, the last
    await tty.waitFor("How many agents?");
    tty.keys("Up", "Enter"); // 2 (from 3)
    await tty.waitFor("Agent 1 of 2: which provider?");
    tty.keys("Up", "Enter"); // OpenAI-compatible server, the last (from OpenAI, the first)
    await tty.waitFor("Base URL of the server (with /v1)");
    tty.type("localhost");
    await tty.waitFor("Type a URL like http://localhost:8000/v1");
    tty.keys("C-u");
    tty.type("http://127.0.0.1:9/v1");
    await tty.waitFor("Model name, as the server spells it");
    tty.type("x");
    await tty.waitFor("Agent 2 of 2: which provider?");
    tty.keys("Up", "Enter");
    await waitForCount(tty, "Base URL of the server (with /v1)", 2);
    // Typing the URL again, as a user does: it replaces the hint (it was appended to pre-filled text).
    tty.type("http://127.0.0.1:9/v1");
    await waitForCount(tty, "Model name, as the server spells it", 2);
    tty.keys("Enter"); // the hint: the previous agent's model
    const shown = await tty.waitFor("Save it where?");
    expect(shown).toContain("- id: compatible_2");
    expect(shown).not.toContain("v1http");
    tty.keys("Enter"); // As your default
    await tty.waitFor("Saved ~/.config/coord/config.yaml.");
    const text = await readFile(join(box.home, ".config", "coord", "config.yaml"), "utf8");
    const { config } = parseConfigText(text, { env: {} });
    expect(
      config.agents.map((agent) => [agent.id, agent.backend.base_url, agent.backend.model]),
    ).toEqual([
      ["compatible_1", "http://127.0.0.1:9/v1", "x"],
      ["compatible_2", "http://127.0.0.1:9/v1", "x"],
    ]);
    await tty.waitFor("Ask the team, or /help", 30_000);
    tty.type("/quit");
    expect(await tty.waitFor(/EXIT=\d+/)).toContain("EXIT=0");
  });

  test("Ctrl+C while typing a key leaves no file, and exits 4", async () => {
    const box = await makeSandbox();
    const tty = startCoord(box, '"a question"');
    await tty.waitFor("Which providers will you use?");
    tty.keys("Space", "Enter");
    await tty.waitFor("OpenAI API key");
    tty.type("sk-half-typed", false);
    tty.keys("C-c");
    const end = await tty.waitFor(/EXIT=\d+/);
    expect(end).toContain("coord: setup cancelled; nothing was written");
    expect(end).toContain("EXIT=4");
    expect(await readdir(box.home)).toEqual([]);
    expect(await readdir(box.cwd)).toEqual([]);
  });

  test("Ctrl+C in step 2 keeps the saved keys and writes no config", async () => {
    const box = await makeSandbox();
    const tty = startCoord(box, "");
    await tty.waitFor("Which providers will you use?");
    tty.keys("Space", "Enter");
    await tty.waitFor("OpenAI API key");
    tty.type("sk-kept");
    await tty.waitFor("Check the keys now?");
    tty.keys("Right", "Enter"); // No
    await tty.waitFor("How do you want to set up your team?");
    tty.keys("Enter");
    await tty.waitFor("Which template?");
    tty.keys("Enter");
    await tty.waitFor("Save it where?");
    tty.keys("C-c");
    const end = await tty.waitFor(/EXIT=\d+/);
    expect(end).toContain(
      "coord: setup cancelled; ~/.config/coord/.env was saved, no config was written",
    );
    expect(end).toContain("EXIT=4");
    expect(await readdir(join(box.home, ".config", "coord"))).toEqual([".env"]);
    expect(await readdir(box.cwd)).toEqual([]);
  });

  test("--select lists the four sources by category, Esc goes back, the chosen config answers the question", async () => {
    const box = await makeSandbox();
    await mkdir(join(box.home, ".config", "coord", "agents"), { recursive: true });
    await writeFile(join(box.home, ".config", "coord", "agents", "mine.yaml"), SCRIPTED("mine"));
    await mkdir(join(box.cwd, ".coord"));
    await writeFile(join(box.cwd, ".coord", "team.yaml"), SCRIPTED("From the project team."));
    await writeFile(join(box.cwd, "here.yaml"), SCRIPTED("here"));
    const tty = startCoord(box, '--select --no-display "Which team is this?"');

    const top = await tty.waitFor("Which configs?");
    for (const category of [
      "Your configs",
      "This project",
      "This directory",
      "Examples: getting started",
      "Examples: local and self-hosted models",
      "Examples: log analysis",
    ]) {
      expect(top).toContain(category);
    }
    tty.keys("Enter"); // Your configs
    const mine = await tty.waitFor("Your configs: which config?");
    expect(mine).toContain("mine — 2 agents: scripted ×2");
    tty.keys("Escape");
    await waitForCount(tty, "Which configs?", 2);
    tty.keys("Down", "Enter"); // This project
    const project = await tty.waitFor("This project: which config?");
    expect(project).toContain("team — 2 agents: scripted ×2");
    tty.keys("Enter");
    const end = await tty.waitFor(/EXIT=\d+/, 60_000);
    expect(end).toContain("team: answering your question…");
    expect(end).toContain("From the project team.");
    expect(end).toContain("EXIT=0");
  });
});

describe.skipIf(!hasTmux())("cancelling --select", () => {
  test("Ctrl+C on the config list says --select was cancelled, writes nothing, exits 4", async () => {
    const box = await makeSandbox();
    const tty = startCoord(box, '--select "q"');
    await tty.waitFor("Which configs? (Esc quits)");
    tty.keys("Enter");
    await tty.waitFor("which config? (Esc goes back)");
    tty.keys("C-c");
    const end = await tty.waitFor(/EXIT=\d+/);
    expect(end).toContain("coord: --select cancelled: no config chosen");
    expect(end).toContain("EXIT=4");
    expect(await readdir(box.home)).toEqual([]);
    expect(await readdir(box.cwd)).toEqual([]);
  });
});

describe("without a terminal", () => {
  test("no config: nothing is asked, the message says how to make one, exit 1", async () => {
    const box = await makeSandbox();
    const result = await runCli(["What is 2+2?"], box);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("coord: No config found: coord looked for .coord/config.yaml");
    expect(result.stdout).toBe("");
    expect(await readdir(box.home)).toEqual([]);
  });

  test("--select and --setup say they need a terminal, exit 1", async () => {
    const box = await makeSandbox();
    for (const flag of ["--select", "--setup"]) {
      const result = await runCli([flag, "q"], box);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `coord: ${flag} needs a terminal (stdin and stdout); without one, name the config with --config PATH\n`,
      );
    }
    const both = await runCli(["--select", "--config", "x.yaml", "q"], box);
    expect(both.stderr).toBe(
      "coord: --select chooses the config itself: leave out --config, --backend and --model\n",
    );
    expect(both.code).toBe(1);
  });
});
