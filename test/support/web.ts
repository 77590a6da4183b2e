/**
 * Browser UI end-to-end kit: the built CLI as `coord --web --no-browser --web-port 0` against the
 * fake OpenAI server, and Debian's chromium driven by playwright-core (never a browser download,
 * never the network). Screenshots go to test-artifacts/web/ (gitignored).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { CLI, REPO_ROOT } from "./cli.js";
import {
  coordinationHandler,
  type FakeHandler,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
  summarizeRequest,
} from "./fake-openai-server.js";

/** Where tests save screenshots. */
export const ARTIFACTS = join(REPO_ROOT, "test-artifacts", "web");

/** Launches headless Debian chromium with background networking off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.COORD_CHROMIUM ?? "/usr/bin/chromium",
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
}

/** Saves a screenshot (the full page unless `fullPage: false`) as test-artifacts/web/<name>.png. */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/** A running `coord --web`. */
export interface WebCli {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Sends `signal` (default SIGINT) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `node dist/bin/coord.js --web --no-browser --web-port 0 …args` and waits for its
 * `coord web UI: <url>` line (60 s at most).
 * @param options.command the arguments before `args` instead (e.g. `logs analyze …`).
 */
export function startWebCli(
  args: readonly string[],
  options: { cwd: string; home: string; env?: Record<string, string>; command?: string[] },
): Promise<WebCli> {
  const child = spawn(
    process.execPath,
    [CLI, ...(options.command ?? ["--web", "--no-browser", "--web-port", "0"]), ...args],
    {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: options.home, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`coord --web did not start in 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /coord web UI: (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: (signal = "SIGINT") => {
          child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`coord --web exited ${code} before serving; stderr: ${stderr}`));
    });
  });
}

/** Models of the three agents: the fake server tells them apart by the request's model. */
export const TEAM_MODELS = ["gpt-4o-mini", "gpt-4.1-mini", "gpt-4.1-nano"] as const;

/** A config of three OpenAI agents (alice, bob, carol) on the fake server. */
export function threeAgentConfig(url: string): string {
  const ids = ["alice", "bob", "carol"];
  return `agents:\n${TEAM_MODELS.map(
    (model, index) =>
      `  - id: ${ids[index]}\n    backend: { type: openai, model: ${model}, base_url: "${url}", api_key: sk-test }\n`,
  ).join("")}`;
}

/** Options of {@link streamingTeamHandler}. */
export interface StreamingTeamOptions {
  /** Held before the final presentation's reply until it resolves (a run paused mid-way). */
  beforeFinal?: () => Promise<void>;
  /** Called with each request's summary (e.g. to check the history reached the prompt). */
  onRequest?: (text: string, model: string) => void;
}

/**
 * The coordination handler with streamed text: each agent writes a sentence naming its model
 * (word by word) before its workflow call; the presenter writes a Markdown final answer that
 * echoes the question.
 */
export function streamingTeamHandler(options: StreamingTeamOptions = {}): FakeHandler {
  const decide = coordinationHandler({
    answer: (summary) => `The answer from ${summary.model} is 42.`,
    reason: "agent1 explains it best.",
    finalAnswer: (summary) => {
      const asked = /Double it/.test(summary.text) ? "84" : "42";
      return `## Six times seven\n\nThe team agrees: **${asked}**.\n\n- checked by three agents\n- <script>alert(1)</script> stays text`;
    },
    usage: { inputTokens: 120, outputTokens: 30 },
  });
  return async (request) => {
    const summary = summarizeRequest(request);
    options.onRequest?.(summary.text, summary.model);
    const reply = await decide(request);
    if (reply.toolCalls === undefined) await options.beforeFinal?.();
    const words =
      reply.toolCalls === undefined
        ? {}
        : { text: `Thinking it over as ${summary.model}: the question has one clear answer. ` };
    return { ...reply, ...words, chunkDelayMs: 15 };
  };
}

/** Starts the fake server and writes team.yaml for it in `cwd`. */
export async function fakeTeam(
  cwd: string,
  options: StreamingTeamOptions = {},
): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAIServer(streamingTeamHandler(options));
  await writeFile(join(cwd, "team.yaml"), threeAgentConfig(server.url));
  return server;
}
