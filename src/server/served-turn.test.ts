/**
 * A chat completion is one turn, the same as the other front doors' (src/runner/turn.ts): with
 * `debug` its coord_debug.log opens with the header every door writes (coord, the arguments, the
 * config and where it came from, each agent's backend, the mode; a request is no memory session,
 * so no session line), then the run's trace lines; the request's earlier messages are the run's
 * history; and no request is recorded in the sessions registry. On the scripted example team,
 * through `app.request()`.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readRunLog, resolveAttemptDir } from "../store/index.js";
import { createApp } from "./app.js";
import type { ChatCompletion } from "./chat-completion.js";
import { loadServedTeam } from "./served-team.js";

test("a served request with --debug: the doors' debug header, then the trace lines; its history is the run's; no session recorded", async () => {
  const cwd = await mkdtemp(join(tmpdir(), "coord-served-turn-"));
  const home = await mkdtemp(join(tmpdir(), "coord-served-home-"));
  const env = { HOME: home };
  const team = await loadServedTeam("@examples/scripted_team", { cwd: process.cwd(), env });
  const logged: string[] = [];
  const app = createApp({
    team,
    env,
    cwd,
    version: "9.9.9",
    logRoot: "logs",
    debug: true,
    cliArgs: ["serve", "--debug", "--config", "@examples/scripted_team"],
    onLog: (line) => logged.push(line),
  });
  const response = await app.request("/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "coord",
      messages: [
        { role: "user", content: "Earlier question" },
        { role: "assistant", content: "Earlier reply" },
        { role: "user", content: "What is 2+2?" },
      ],
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as ChatCompletion;
  const logDir = response.headers.get("x-coord-log-dir");
  expect(logDir).toMatch(/^logs\/log_\d{8}_\d{6}(_\d+)?$/);

  const debugLog = await readFile(join(cwd, logDir!, "coord_debug.log"), "utf8");
  const lines = debugLog.split("\n");
  const header = lines.findIndex((line) => / coord 9\.9\.9 \(node /.test(line));
  const firstTrace = lines.findIndex((line) =>
    body.choices[0].message.reasoning_content.split("\n").some((trace) => line.endsWith(trace)),
  );
  expect(header).toBeGreaterThanOrEqual(0);
  expect(firstTrace).toBeGreaterThan(header);
  expect(debugLog).toContain("args: serve --debug --config @examples/scripted_team");
  expect(debugLog).toContain(`config: ${team.path!}`);
  for (const agent of team.config.agents) expect(debugLog).toContain(`agent ${agent.id}: backend`);
  expect(debugLog).toMatch(new RegExp(`mode ${team.mode}; orchestrator timeout`));
  expect(debugLog).not.toMatch(/ session /);
  // The trace lines also reach the server's log, under the request's id.
  expect(logged.some((line) => / \[/.test(line))).toBe(true);

  // The request's earlier messages were the run's history: one earlier turn.
  const { events } = await readRunLog((await resolveAttemptDir(join(cwd, logDir!))).dir);
  expect(events.find((event) => event.type === "run-start")).toMatchObject({ historyTurns: 1 });
  // A served request is no memory session: the registry under HOME was never written.
  await expect(readFile(join(home, ".coord", "sessions.json"), "utf8")).rejects.toThrow(/ENOENT/);
});
