import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { EventLogError, serializeEvent, type CoordEvent } from "../events/index.js";
import { writeFileAtomic } from "./atomic-write.js";
import {
  findLatestLogDir,
  listLogDirs,
  logDirName,
  parseLogDirName,
  resolveAttemptDir,
} from "./log-dir.js";
import { readRunLog } from "./log-reader.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-log-reader-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const runStart: CoordEvent = {
  v: 2,
  seq: 1,
  time: "2025-03-01T09:00:00.000Z",
  runId: "r",
  type: "run-start",
  question: "q?",
  mode: "single",
  historyTurns: 0,
  agents: [{ id: "solo", anonId: "agent1", backend: "scripted", model: "m" }],
};
const answer: CoordEvent = {
  v: 2,
  seq: 2,
  time: "2025-03-01T09:00:01.000Z",
  runId: "r",
  type: "answer",
  agentId: "solo",
  round: 1,
  label: "agent1.1",
  anonId: "agent1",
  content: "42",
};

async function attemptDir(log = "log_20250301_090000", turn = 1, attempt = 1): Promise<string> {
  const dir = join(root, log, `turn_${turn}`, `attempt_${attempt}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

describe("readRunLog", () => {
  it("reads events, replays them, and picks up status.json and metrics.json", async () => {
    const dir = await attemptDir();
    await writeFile(join(dir, "events.jsonl"), serializeEvent(runStart) + serializeEvent(answer));
    await writeFileAtomic(join(dir, "status.json"), JSON.stringify({ phase: "coordinating" }));
    const log = await readRunLog(dir);
    expect(log.dir).toBe(dir);
    expect(log.events).toEqual([runStart, answer]);
    expect(log.truncated).toBe(false);
    expect(log.state.question).toBe("q?");
    expect(log.state.agents[0]).toMatchObject({ status: "answered", answerCount: 1 });
    expect(log.status).toEqual({ phase: "coordinating" });
    expect(log.metrics).toBeUndefined();
    expect(log.traceId).toBeUndefined();
  });

  it("reads the trace id of a traced run from execution_metadata.yaml", async () => {
    const dir = await attemptDir();
    await writeFile(join(dir, "events.jsonl"), serializeEvent(runStart));
    await writeFile(
      join(dir, "execution_metadata.yaml"),
      "question: q?\ntrace_id: 0af7651916cd43dd8448eb211c80319c\n",
    );
    expect((await readRunLog(dir)).traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    await writeFile(join(dir, "execution_metadata.yaml"), "question: [unclosed\n");
    await expect(readRunLog(dir)).rejects.toThrow(/execution_metadata.yaml: not valid YAML/);
  });

  it("reports a cut-off last line as truncated", async () => {
    const dir = await attemptDir();
    await writeFile(join(dir, "events.jsonl"), serializeEvent(runStart) + '{"v":1,"seq":2,"ty');
    const log = await readRunLog(dir);
    expect(log.truncated).toBe(true);
    expect(log.events).toEqual([runStart]);
  });

  it("names the missing events.jsonl", async () => {
    const dir = await attemptDir();
    const error = await readRunLog(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(join(dir, "events.jsonl"));
  });

  it("names the file and line of a malformed or newer event", async () => {
    const dir = await attemptDir();
    const eventsPath = join(dir, "events.jsonl");
    await writeFile(eventsPath, "not json\n" + serializeEvent(runStart));
    await expect(readRunLog(dir)).rejects.toThrow(`${eventsPath}:1: not valid JSON`);
    await writeFile(
      eventsPath,
      serializeEvent(runStart) + JSON.stringify({ ...answer, v: 99 }) + "\n",
    );
    const error = await readRunLog(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventLogError);
    expect((error as Error).message).toMatch(new RegExp(`${eventsPath}:2: .*version 99`));
  });

  it("names a corrupt metrics.json", async () => {
    const dir = await attemptDir();
    await writeFile(join(dir, "events.jsonl"), serializeEvent(runStart));
    await writeFile(join(dir, "metrics.json"), "{");
    await expect(readRunLog(dir)).rejects.toThrow(join(dir, "metrics.json"));
  });
});

describe("log directories", () => {
  it("names log directories in local time", () => {
    expect(logDirName(new Date(2025, 0, 2, 3, 4, 5))).toBe("log_20250102_030405");
    expect(logDirName(new Date(2025, 11, 31, 23, 59, 59), "2")).toBe("log_20251231_235959_2");
    expect(parseLogDirName("log_20250102_030405_7")).toEqual({
      timestamp: "20250102_030405",
      suffix: "7",
    });
    expect(parseLogDirName("session_20250102_030405")).toBeNull();
  });

  it("lists log directories newest first and finds the latest", async () => {
    expect(await listLogDirs(join(root, "missing"))).toEqual([]);
    expect(await findLatestLogDir(root)).toBeNull();
    await attemptDir("log_20250301_090000");
    await attemptDir("log_20250301_100000");
    await attemptDir("log_20250301_100000_2");
    await attemptDir("log_20250228_235959_10");
    await mkdir(join(root, "not_a_log"));
    await writeFile(join(root, "log_20990101_000000"), "a file, not a directory");
    await writeFile(join(root, "log_20250301_090000", "ANALYSIS_REPORT.md"), "# analysis");
    const entries = await listLogDirs(root);
    expect(entries.map((entry) => [entry.name, entry.analyzed])).toEqual([
      ["log_20250301_100000_2", false],
      ["log_20250301_100000", false],
      ["log_20250301_090000", true],
      ["log_20250228_235959_10", false],
    ]);
    expect(await findLatestLogDir(root)).toBe(join(root, "log_20250301_100000_2"));
  });

  it("resolves the latest turn and attempt, or the ones asked for", async () => {
    const log = "log_20250301_090000";
    const logDir = join(root, log);
    await attemptDir(log, 1, 1);
    await attemptDir(log, 2, 1);
    await attemptDir(log, 2, 3);
    await attemptDir(log, 10, 2);
    expect(await resolveAttemptDir(logDir)).toEqual({
      logDir,
      dir: join(logDir, "turn_10", "attempt_2"),
      turn: 10,
      attempt: 2,
    });
    expect(await resolveAttemptDir(logDir, { turn: 2 })).toMatchObject({ turn: 2, attempt: 3 });
    expect(await resolveAttemptDir(logDir, { turn: 2, attempt: 1 })).toMatchObject({
      dir: join(logDir, "turn_2", "attempt_1"),
    });
    expect(await resolveAttemptDir(join(logDir, "turn_2"))).toMatchObject({ turn: 2, attempt: 3 });
    expect(await resolveAttemptDir(join(logDir, "turn_1", "attempt_1"))).toEqual({
      logDir,
      dir: join(logDir, "turn_1", "attempt_1"),
      turn: 1,
      attempt: 1,
    });
    await expect(resolveAttemptDir(logDir, { turn: 3 })).rejects.toThrow(
      `${logDir} has no turn_3 (turns: 1, 2, 10)`,
    );
    await expect(resolveAttemptDir(join(root, "nope"))).rejects.toBeInstanceOf(ConfigError);
    await mkdir(join(root, "empty"));
    await expect(resolveAttemptDir(join(root, "empty"))).rejects.toThrow(/no turn_<n> directory/);
  });
});
