/**
 * End-to-end tests of how a question ends when it is stopped from outside: SIGTERM and SIGHUP
 * (like Ctrl+C), `kill -9` (the session must not stay `active` forever) and an output whose
 * reader is gone (EPIPE). The built CLI runs a scripted agent that waits 30 s, in a temp
 * working directory with a temp HOME.
 */
import type { ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

const SLOW_TEAM = `
agents:
  - id: slow
    backend:
      type: scripted
      steps:
        - { delay_ms: 30000, answer: "never" }
`;

const QUICK_TEAM = `
agents:
  - id: quick
    backend:
      type: scripted
      steps:
        - answer: "4"
        - text: "4."
`;

interface SessionJson {
  id: string;
  status: string;
  ended_at: string | null;
  turns: number;
  pid?: number;
}

async function sandbox() {
  const box = await makeSandbox();
  await writeFile(join(box.cwd, "slow.yaml"), SLOW_TEAM);
  await writeFile(join(box.cwd, "quick.yaml"), QUICK_TEAM);
  return box;
}

/** The records as written in ~/.coord/sessions.json (not as --list-sessions reports them). */
async function registry(home: string): Promise<SessionJson[]> {
  const text = await readFile(join(home, ".coord", "sessions.json"), "utf8");
  return (JSON.parse(text) as { sessions: SessionJson[] }).sessions;
}

/** Sends `signal` once the agent's model call has started (its trace line is on stderr). */
function signalWhenRunning(signal: NodeJS.Signals, onPid?: (pid: number) => void) {
  return (child: ChildProcess) => {
    let stderr = "";
    let sent = false;
    onPid?.(child.pid!);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && stderr.includes("[slow] Round 1")) {
        sent = true;
        child.kill(signal);
      }
    });
  };
}

/**
 * The run ended cleanly as interrupted: run-end last (its error says what stopped it),
 * status.json and metrics.json final.
 */
async function expectInterruptedLog(cwd: string, stoppedBy: string): Promise<void> {
  const dir = await onlyAttemptDir(cwd);
  const { events, truncated } = parseEventLog(await readLog(dir, "events.jsonl"));
  expect(truncated).toBe(false);
  expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "interrupted" });
  expect((events.at(-1) as { error?: string }).error).toContain(stoppedBy);
  expect(JSON.parse(await readLog(dir, "status.json"))).toMatchObject({
    end_reason: "interrupted",
  });
  expect(JSON.parse(await readLog(dir, "metrics.json"))).toMatchObject({
    end_reason: "interrupted",
    agents: [{ id: "slow" }],
  });
}

describe("a question stopped from outside", () => {
  test.each(["SIGTERM", "SIGHUP"] as const)(
    "%s ends the run like Ctrl+C: run-end, metrics.json, session interrupted, exit 4",
    async (signal) => {
      const box = await sandbox();
      let pid = 0;
      const result = await runCli(["--config", "slow.yaml", "--no-display", "q"], {
        ...box,
        onSpawn: signalWhenRunning(signal, (childPid) => (pid = childPid)),
      });
      expect(result.stderr).toContain(`coord: ${signal}: stopping`);
      expect(result.stderr).toContain("coord: interrupted; partial work is in the run log");
      expect(result.code).toBe(4);
      await expectInterruptedLog(box.cwd, `stopped by ${signal}`);
      const [session] = await registry(box.home);
      expect(session).toMatchObject({ status: "interrupted", turns: 1, pid });
      expect(session!.ended_at).not.toBeNull();
    },
  );

  test("after kill -9 the session lists as interrupted, and the next run writes it so", async () => {
    const box = await sandbox();
    let pid = 0;
    const killed = await runCli(["--config", "slow.yaml", "--no-display", "q"], {
      ...box,
      onSpawn: signalWhenRunning("SIGKILL", (childPid) => (pid = childPid)),
    });
    expect(killed.code).toBeNull();
    // Nothing could close it: the file still says active, with the dead process's id.
    const [written] = await registry(box.home);
    expect(written).toMatchObject({ status: "active", pid });

    const json = await runCli(["--list-sessions", "--json"], box);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ id: written!.id, status: "interrupted", ended_at: null }),
    ]);
    const table = await runCli(["--list-sessions"], box);
    expect(table.stdout).toMatch(new RegExp(`${written!.id}\\s+\\S+ \\S+\\s+0\\s+interrupted\\s`));

    // Every line of the killed run's log still parses; it just has no run-end.
    const dir = await onlyAttemptDir(box.cwd);
    const text = await readLog(dir, "events.jsonl");
    for (const line of text.split("\n").filter((line) => line !== ""))
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    const { events, truncated } = parseEventLog(text);
    expect(truncated).toBe(false);
    expect(events[0]).toMatchObject({ type: "run-start" });
    expect(events.some((event) => event.type === "run-end")).toBe(false);
    // `coord logs list` tells it from a run still going.
    const list = await runCli(["logs", "list"], box);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("incomplete (process gone)");

    // The next change of the registry (another question) writes the correction down.
    const next = await runCli(["--config", "quick.yaml", "--no-display", "--no-logs", "q"], box);
    expect(next.code).toBe(0);
    const after = await registry(box.home);
    expect(after.find((session) => session.id === written!.id)).toMatchObject({
      status: "interrupted",
    });
    expect(after.find((session) => session.id !== written!.id)).toMatchObject({
      status: "completed",
    });
  });

  // A reader that leaves after its first line (`coord … | head -1`) shows up at coord's next
  // write: here the reader is gone before coord writes at all, so that write is the first one
  // and comes while the agent still waits.
  test("stdout whose reader is gone (EPIPE) stops the run cleanly instead of exiting mid-run", async () => {
    const box = await sandbox();
    const result = await runCli(["--config", "slow.yaml", "--automation", "q"], {
      ...box,
      onSpawn: (child) => child.stdout!.destroy(),
    });
    expect(result.code).toBe(4);
    await expectInterruptedLog(box.cwd, "its output was closed");
    const [session] = await registry(box.home);
    expect(session).toMatchObject({ status: "interrupted", turns: 1 });
  });

  test("stderr whose reader is gone (`2>&1 | head -1`) stops the run cleanly too", async () => {
    const box = await sandbox();
    const result = await runCli(["--config", "slow.yaml", "--no-display", "q"], {
      ...box,
      onSpawn: (child) => child.stderr!.destroy(),
    });
    expect(result.code).toBe(4);
    await expectInterruptedLog(box.cwd, "its output was closed");
    expect((await registry(box.home))[0]).toMatchObject({ status: "interrupted" });
  });
});
