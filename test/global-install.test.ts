/**
 * The packed tarball installed globally as a user installs it: `npm pack`,
 * then `npm install -g --prefix <tmp> --offline` from npm's cache (no registry, no network; the
 * repository's `npm ci` fills the cache). The install carries no optional part and no GPU build;
 * its `coord` runs a team against the fake OpenAI server on 127.0.0.1, and a config that needs an
 * optional part fails in one line naming the package to install.
 *
 * When npm's cache lacks a dependency (`ENOTCACHED`: a fresh machine that never ran `npm ci`) the
 * install is impossible offline: the tests are skipped with npm's reason printed.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { globalInstall, unneededPackages, type GlobalInstall } from "../bench/install-size.js";
import type { RunResultJson } from "../src/commands/run-json.js";
import { makeSandbox, REPO_ROOT, type CliResult } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";

let installed: GlobalInstall | undefined;
let skipped: string | undefined;

beforeAll(() => {
  try {
    installed = globalInstall(REPO_ROOT);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/ENOTCACHED|cache mode is 'only-if-cached'/i.test(message)) throw error;
    skipped = `the global install needs packages npm's cache lacks (run npm ci first): ${message}`;
    console.warn(`[global-install] skipped: ${skipped}`);
  }
}, 240_000);

afterAll(() => {
  if (installed) rmSync(installed.dir, { recursive: true, force: true });
});

/** Runs the globally installed `coord` (its bin link, through node on PATH). */
async function coord(args: readonly string[], config?: string): Promise<CliResult> {
  const sandbox = await makeSandbox();
  if (config !== undefined) await writeFile(join(sandbox.cwd, "team.yaml"), config);
  return new Promise((resolve, reject) => {
    const child = spawn(installed!.bin, args, {
      cwd: sandbox.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: sandbox.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("a global install of the packed tarball", () => {
  test("carries no optional part, no GPU build and no Claude Code binary", (context) => {
    if (skipped !== undefined) return context.skip(skipped);
    expect(installed!.packages).toContain("coord");
    expect(unneededPackages(installed!.packages)).toEqual([]);
    expect(existsSync(join(installed!.packageDir, "LICENSE"))).toBe(true);
    expect(existsSync(join(installed!.packageDir, "config.schema.json"))).toBe(true);
    expect(existsSync(join(installed!.packageDir, "dist", "test"))).toBe(false);
    console.log(
      `[global-install] ${(installed!.bytes / 1e6).toFixed(1)} MB, ${installed!.packages.length} packages`,
    );
  });

  test("runs a team against a fake OpenAI server", async (context) => {
    if (skipped !== undefined) return context.skip(skipped);
    let server: FakeOpenAIServer | undefined;
    try {
      server = await startFakeOpenAIServer(
        coordinationHandler({ answer: () => "2+2=4.", finalAnswer: "Final: 4." }),
      );
      const agent = (id: string) =>
        `  - id: ${id}\n    backend: { type: openai, model: gpt-4o-mini, base_url: "${server!.url}", api_key: sk-test }\n`;
      const result = await coord(
        ["--config", "team.yaml", "--json", "What is 2+2?"],
        `agents:\n${agent("a")}${agent("b")}`,
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const json = JSON.parse(result.stdout) as RunResultJson;
      expect(json.answer).toBe("Final: 4.");
      expect(json.status).toBe("completed");
      expect(json.agents.map((agent) => agent.error)).toEqual([null, null]);
      expect(json.usage.model_calls).toBe(
        server.requests.filter((r) => r.method === "POST").length,
      );
      expect(json.cost_complete).toBe(true);
      expect(json.price_data).toMatch(/^@pydantic\/genai-prices \d+\.\d+\.\d+/);
    } finally {
      await server?.close();
    }
  });

  test("--backend local without node-llama-cpp: one line naming the package", async (context) => {
    if (skipped !== undefined) return context.skip(skipped);
    const result = await coord(["--backend", "local", "--no-display", "hi"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("node-llama-cpp");
    expect(result.stderr).toContain("npm install -g node-llama-cpp");
  });

  test("a claude_code agent without the Claude Agent SDK: one line naming the package", async (context) => {
    if (skipped !== undefined) return context.skip(skipped);
    const result = await coord(
      ["--config", "team.yaml", "--no-display", "hi"],
      "agents:\n  - id: code\n    backend: { type: claude_code, model: claude-haiku-4-5 }\n",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("npm install -g @anthropic-ai/claude-agent-sdk");
  });
});
