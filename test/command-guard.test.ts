/**
 * Unknown sub-commands are never sent to the team as questions: with a
 * discovered config whose agents talk to a fake OpenAI server, a mistyped command exits 1 with
 * a suggestion, and the server gets no request; a real one-word question still runs.
 */
import { cp, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import { installFakeGh } from "./support/fake-gh.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer(coordinationHandler({ answer: "Hi.", finalAnswer: "Hi!" }));
});
afterAll(async () => server.close());

/** A sandbox whose `.coord/config.yaml` (discovered) is a one-agent team on the fake server. */
async function sandboxWithDiscoveredConfig(): Promise<{ cwd: string; home: string }> {
  const sandbox = await makeSandbox();
  await mkdir(join(sandbox.cwd, ".coord"));
  await writeFile(
    join(sandbox.cwd, ".coord", "config.yaml"),
    `agents:\n  - id: solo\n    backend: { type: openai, model: gpt-4o-mini, base_url: "${server.url}", api_key: sk-test-guard }\n`,
  );
  return sandbox;
}

describe("a mistyped sub-command with a discovered config", () => {
  test.each([
    ["exprt", "coord export"],
    ["viewr", "coord viewer"],
    ["share", "coord shares"],
    ["Logs", "coord logs"],
  ])("coord %s → exit 1, suggests %s, no model call, no run log", async (word, suggestion) => {
    const sandbox = await sandboxWithDiscoveredConfig();
    const before = server.requests.length;
    const result = await runCli([word], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`did you mean ${suggestion}?`);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stdout).toBe("");
    expect(server.requests.length).toBe(before);
    expect(await readdir(sandbox.cwd)).not.toContain("agent_outputs");
  });

  test("a one-word question that is no command is asked", async () => {
    const sandbox = await sandboxWithDiscoveredConfig();
    const before = server.requests.length;
    const result = await runCli(["--no-display", "Hello"], sandbox);
    expect(result.stderr).not.toContain("did you mean");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hi.\n");
    expect(server.requests.length).toBeGreaterThan(before);
  });
});

describe("the sharing commands with a discovered config never call a model", () => {
  test("coord export, coord viewer and coord shares list: no request reaches the model server", async () => {
    const sandbox = await sandboxWithDiscoveredConfig();
    await cp(
      new URL("./fixtures/logs/runs/", import.meta.url).pathname,
      join(sandbox.cwd, "agent_outputs"),
      { recursive: true },
    );
    const gh = await installFakeGh();
    const before = server.requests.length;
    const exported = await runCli(["export", "--yes"], { ...sandbox, env: gh.env });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(
      /^Share URL: https:\/\/coord-cli\.github\.io\/share\/\?gist=[0-9a-f]{32}\n$/,
    );
    const viewed = await runCli(["viewer", "--no-follow"], sandbox);
    expect(viewed.code).toBe(0);
    const listed = await runCli(["shares", "list"], { ...sandbox, env: gh.env });
    expect(listed.code).toBe(0);
    expect(server.requests.length).toBe(before);
    // Only the fixture logs: no run was started.
    expect((await readdir(join(sandbox.cwd, "agent_outputs"))).length).toBe(5);
  });
});
