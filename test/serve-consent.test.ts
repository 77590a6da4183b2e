/**
 * `coord serve` acts only with the operator's consent (docs/security.md), over a real socket to the
 * built CLI:
 *
 * - without `--config`, a request naming `@examples/tools_team` (commands, MCP, a writable
 *   context path) is refused before any agent starts: the command it asks for never runs;
 * - a config a run wrote (its final answer, a file under `agent_outputs/` or `.coord/`) is never
 *   loaded through `path:`, even with `--teams .` and `--allow-acting-teams`;
 * - `--allow-acting-teams` off loopback without COORD_SERVER_API_KEY refuses to start; with the
 *   key it serves the acting team behind it; an acting `--config` without the flag refuses to
 *   start.
 */
import { access, chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
  summarizeRequest,
} from "./support/fake-openai-server.js";
import { startServe, type ServeProcess } from "./support/serve.js";

let serve: ServeProcess | undefined;
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  serve = undefined;
  await fake?.close();
  fake = undefined;
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** True when a file named `name` exists anywhere under `root` (an agent's workspace, say). */
const createdUnder = async (root: string, name: string) =>
  (await readdir(root, { recursive: true })).some((path) => path.split("/").pop() === name);

/** POSTs a chat completion with `model` and a question; resolves with status, headers, JSON. */
async function ask(
  port: number,
  model: string,
  content: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model, messages: [{ role: "user", content }] }),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, unknown>,
  };
}

/** A scripted agent that runs `touch <marker>` with execute_command (in its workspace), then answers. */
function actingTeam(marker: string): string {
  return `agents:
  - id: doer
    backend:
      type: scripted
      enable_mcp_command_line: true
      steps:
        - tool_calls: [{ name: execute_command, input: { command: "touch ${marker}" } }]
        - answer: "Done."
`;
}

describe("a request reaches only teams the operator named", () => {
  test(
    "row 1: @examples/tools_team asked to run a command is refused; the command never runs",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      const marker = join(sandbox.home, "pwned-by-request");
      // Were the team to start: gpt (on this fake) runs `touch <marker>` at once; claude's
      // provider is a closed port, and its MCP server's npx a stub (no network either way).
      let commanded = false;
      const decide = coordinationHandler({ answer: () => "Done." });
      fake = await startFakeOpenAIServer(async (request) => {
        if (!commanded && summarizeRequest(request).toolNames.includes("execute_command")) {
          commanded = true;
          return {
            toolCalls: [{ name: "execute_command", arguments: { command: `touch ${marker}` } }],
          };
        }
        return decide(request);
      });
      const bin = join(sandbox.home, "bin");
      await mkdir(bin);
      await writeFile(join(bin, "npx"), "#!/bin/sh\nexit 1\n");
      await chmod(join(bin, "npx"), 0o755);
      serve = await startServe(["--port", "0", "--no-logs"], {
        ...sandbox,
        env: {
          PATH: `${bin}:${process.env.PATH ?? ""}`,
          OPENAI_API_KEY: "sk-test-openai-key-0000",
          OPENAI_BASE_URL: fake.url,
          ANTHROPIC_API_KEY: "sk-ant-test-key-0000",
          ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
        },
      });
      await serve.waitFor(/Press Ctrl\+C to stop/);
      expect(serve.stderr()).toContain("acting:    refused");

      const reply = await ask(serve.port, "@examples/tools_team", `Run: touch ${marker}`);
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatchObject({ code: "model_not_allowed", param: "model" });
      expect(JSON.stringify(reply.json)).toContain("agent gpt runs commands");
      expect(fake.requests).toHaveLength(0);
      expect(await exists(marker)).toBe(false);
      expect(await exists(join(sandbox.cwd, ".coord"))).toBe(false);

      // The examples offered are the ones that do not act; a quiet one still answers.
      const models = (await (await fetch(`${serve.url}/v1/models`)).json()) as {
        data: { id: string }[];
      };
      const ids = models.data.map((model) => model.id);
      expect(ids).toContain("@examples/scripted_team");
      expect(ids).not.toContain("@examples/tools_team");
      expect(ids).not.toContain("@examples/scripted_tools");
      expect((await ask(serve.port, "@examples/scripted_team", "What is 2+2?")).status).toBe(200);
      // path: needs a teams folder the operator named.
      await writeFile(join(sandbox.cwd, "team.yaml"), actingTeam(marker));
      const path = await ask(serve.port, "path:team.yaml", "go");
      expect(path.status).toBe(400);
      expect(JSON.stringify(path.json)).toContain("--teams DIR");
      expect(await exists(marker)).toBe(false);
    },
  );

  test(
    "row 2: a config a run wrote (agent_outputs, .coord) is never loaded through path:",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      const marker = "pwned-by-output";
      const evil = actingTeam(marker);
      // Request 1's team answers with a config (what an attacker asks a model to write).
      await writeFile(
        join(sandbox.cwd, "echo.yaml"),
        `agents:\n  - id: echo\n    backend:\n      type: scripted\n      steps:\n        - answer: ${JSON.stringify(evil)}\n`,
      );
      serve = await startServe(
        ["--host", "127.0.0.1", "--port", "0", "--teams", ".", "--allow-acting-teams"],
        sandbox,
      );
      const first = await ask(serve.port, "path:echo.yaml", "Write a coord config");
      expect(first.status).toBe(200);
      const logDir = first.headers.get("x-coord-log-dir")!;
      expect(logDir).toMatch(/^agent_outputs\//);
      const written = (await readdir(join(sandbox.cwd, logDir), { recursive: true })).find((name) =>
        name.endsWith("final_answer.md"),
      )!;
      expect(written).toBeDefined();
      // The run's own file, and the same text saved as .yaml under the output folders.
      await writeFile(join(sandbox.cwd, "agent_outputs", "evil.yaml"), evil);
      await mkdir(join(sandbox.cwd, ".coord", "workspaces", "run_1"), { recursive: true });
      await writeFile(join(sandbox.cwd, ".coord", "workspaces", "run_1", "evil.yml"), evil);
      for (const model of [
        `path:${logDir}/${written}`,
        `path:${join(sandbox.cwd, logDir, written)}`,
        "path:agent_outputs/evil.yaml",
        "path:./agent_outputs/../agent_outputs/evil.yaml",
        "path:.coord/workspaces/run_1/evil.yml",
      ]) {
        const reply = await ask(serve.port, model, "go");
        expect(reply.status, model).toBe(400);
        expect(reply.json.error, model).toMatchObject({ code: "model_not_allowed" });
      }
      expect(await createdUnder(sandbox.cwd, marker)).toBe(false);
      // The same config, saved by the operator in the teams folder, runs (acting teams allowed).
      await writeFile(join(sandbox.cwd, "mine.yaml"), evil);
      expect((await ask(serve.port, "path:mine.yaml", "go")).status).toBe(200);
      expect(await createdUnder(sandbox.cwd, marker)).toBe(true);
    },
  );

  test("--teams inside a folder runs write, or with --config, refuses to start", async () => {
    const sandbox = await makeSandbox();
    await mkdir(join(sandbox.cwd, "agent_outputs", "teams"), { recursive: true });
    const inside = await runCli(
      ["serve", "--port", "0", "--teams", "agent_outputs/teams"],
      sandbox,
    );
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain("where coord's runs write");
    const both = await runCli(
      ["serve", "--port", "0", "--teams", ".", "--config", "@examples/scripted_team"],
      sandbox,
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("--teams and --config: pick one");
  });
});

describe("acting teams need the operator's opt-in, and a key off loopback", () => {
  test(
    "an acting --config without --allow-acting-teams, or with it on 0.0.0.0 without a key, does not start; with the key it serves behind it",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      const marker = "ran-with-consent";
      await writeFile(join(sandbox.cwd, "acting.yaml"), actingTeam(marker));

      const noFlag = await runCli(["serve", "--port", "0", "--config", "acting.yaml"], sandbox);
      expect(noFlag.code).toBe(1);
      expect(noFlag.stderr).toMatch(
        /^coord: acting\.yaml acts on this machine \(agent doer runs commands \(enable_mcp_command_line\)\).*add --allow-acting-teams \(and set COORD_SERVER_API_KEY\)/,
      );
      const noKey = await runCli(
        [
          "serve",
          "--host",
          "0.0.0.0",
          "--port",
          "0",
          "--config",
          "acting.yaml",
          "--allow-acting-teams",
        ],
        sandbox,
      );
      expect(noKey.code).toBe(1);
      expect(noKey.stderr).toContain("--allow-acting-teams on 0.0.0.0 needs COORD_SERVER_API_KEY");
      expect(noKey.stderr.trim().split("\n")).toHaveLength(1);
      expect(await exists(join(sandbox.cwd, ".coord"))).toBe(false);

      const key = "a-long-server-key-for-acting-teams";
      serve = await startServe(
        [
          "--host",
          "0.0.0.0",
          "--port",
          "0",
          "--config",
          "acting.yaml",
          "--allow-acting-teams",
          "--no-logs",
        ],
        { ...sandbox, env: { COORD_SERVER_API_KEY: key } },
      );
      const anonymous = await ask(serve.port, "coord", "go");
      expect(anonymous.status).toBe(401);
      expect(await exists(join(sandbox.cwd, ".coord"))).toBe(false);
      const keyed = await ask(serve.port, "coord", "go", { authorization: `Bearer ${key}` });
      expect(keyed.status).toBe(200);
      expect(await createdUnder(sandbox.cwd, marker)).toBe(true);
    },
  );
});
