import { mkdir, mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative, sep } from "node:path";
import { describe, expect, test } from "vitest";
import { parseConfigText } from "../config/load.js";
import { chooseMode } from "./resolve-run.js";
import { createSessionStore } from "../sessions/index.js";
import { openSession } from "./session-turns.js";
import { runTurn, type TurnOptions } from "./turn.js";

const TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      scripts:
        - match: "ask"
          steps:
            - answer: "A1"
            - vote: agent1
            - text: "The answer."
  - id: bob
    backend:
      type: scripted
      scripts:
        - match: "ask"
          steps:
            - answer: "B1"
            - vote: agent1
`;

/** A scripted team, a fresh home and a new session; `owns` makes it the one-shot run's. */
async function setUp(team = TEAM) {
  const root = await mkdtemp(join(tmpdir(), "coord-turn-"));
  const { config } = parseConfigText(team, { env: {} });
  const session = await openSession({
    home: root,
    sessionId: undefined,
    config,
    configPath: undefined,
    cwd: root,
    kind: "single",
  });
  const warnings: string[] = [];
  const options = (extra: Partial<TurnOptions> = {}): TurnOptions => ({
    prepared: { config, configPath: undefined, env: {}, ...chooseMode(config, {}) },
    question: "ask",
    session,
    io: { cwd: root, home: root, version: "0.0.0", argv: [] },
    logs: true,
    debug: false,
    warn: (message) => warnings.push(message),
    ...extra,
  });
  return { root, session, warnings, options, store: createSessionStore({ home: root }) };
}

describe("runTurn", () => {
  test("an answered turn that owns its session: recorded and closed in one write, --output-file written, the debug header heads the debug log", async () => {
    const { root, session, warnings, options, store } = await setUp();
    const seen: string[] = [];
    const running = await runTurn(
      options({
        ownsSession: true,
        debug: true,
        outputFile: "out/answer.md",
        onStarted: ({ turn }) => seen.push(`started ${turn}`),
        subscribers: [(event) => seen.push(event.type)],
        onEnded: (state) => void seen.push(`ended ${state.endReason}`),
      }),
    );
    const result = await running.finished;
    expect(result).toMatchObject({ answered: true, turn: 1 });
    expect(result.outputError).toBeUndefined();
    expect(result.outputPath).toBe(join(root, "out", "answer.md"));
    expect(await readFile(result.outputPath!, "utf8")).toBe("The answer.\n");
    // The door's subscriber caught up from the first event, after onStarted; onEnded last.
    expect(seen[0]).toBe("started 1");
    expect(seen[1]).toBe("run-start");
    expect(seen.at(-1)).toBe("ended completed");
    expect(await store.get(session.record.id)).toMatchObject({
      status: "completed",
      turns: 1,
      log_dir: result.runDir,
    });
    const debugLog = await readFile(join(result.runDir!, "coord_debug.log"), "utf8");
    const lines = debugLog.split("\n");
    const header = lines.findIndex((line) => / coord 0\.0\.0 \(node /.test(line));
    // Before the first event line: the header heads what the run says.
    expect(header).toBeGreaterThanOrEqual(0);
    expect(header).toBeLessThan(lines.findIndex((line) => / #1 /.test(line)));
    expect(debugLog).toContain(`session ${session.record.id}: new, turn 1`);
    expect(warnings).toEqual([]);
  });

  test("a turn without a session (a served request): the given history reaches the agents, the log goes under logRoot as turn_1, nothing is recorded", async () => {
    const historyTeam = TEAM.replace(
      '- answer: "A1"',
      '- answer: "A1"\n              expect_prompt_contains: "Earlier reply"',
    );
    const { root, options, store } = await setUp(historyTeam);
    const before = await store.list();
    const running = await runTurn(
      options({
        session: undefined,
        history: [
          { role: "user", content: "Earlier question" },
          { role: "assistant", content: "Earlier reply" },
        ],
        logRoot: "served-logs",
        debug: true,
        outputFile: "served.md",
      }),
    );
    expect(running.turn).toBe(1);
    const result = await running.finished;
    expect(result).toMatchObject({ answered: true, turn: 1 });
    // alice's expectation held: the history was in her prompt (a mismatch fails her call).
    const events = running.handle.live.events;
    expect(events.filter((event) => event.type === "agent-error")).toEqual([]);
    expect(events.find((event) => event.type === "run-start")).toMatchObject({ historyTurns: 1 });
    expect(relative(root, result.logDir!).split(sep)).toEqual([
      "served-logs",
      basename(result.runDir!),
      "turn_1",
      "attempt_1",
    ]);
    const debugLog = await readFile(join(result.runDir!, "coord_debug.log"), "utf8");
    expect(debugLog).toMatch(/ coord 0\.0\.0 \(node /);
    expect(debugLog).not.toMatch(/ session /);
    // The same --output-file step as every door; the sessions registry untouched.
    expect(await readFile(join(root, "served.md"), "utf8")).toBe("The answer.\n");
    expect(await store.list()).toEqual(before);
  });

  test("a turn without an answer leaves --output-file alone; its owned session closes with how it ended", async () => {
    const { root, session, options, store } = await setUp();
    // No script matches this question: every agent's call fails.
    const running = await runTurn(
      options({ question: "something else", ownsSession: true, outputFile: "answer.md" }),
    );
    const result = await running.finished;
    expect(result.answered).toBe(false);
    expect(result.outputPath).toBeUndefined();
    expect(await readdir(root)).not.toContain("answer.md");
    expect(await store.get(session.record.id)).toMatchObject({ status: "failed", turns: 1 });
  });

  test("a run that cannot start discards the session it owns, and only that one", async () => {
    const needsKey = `
agents:
  - id: alice
    backend: { type: openai, model: gpt-4o-mini }
`;
    const owned = await setUp(needsKey);
    await expect(runTurn(owned.options({ ownsSession: true }))).rejects.toThrow(/OPENAI_API_KEY/);
    expect(await owned.store.get(owned.session.record.id)).toBeUndefined();

    const kept = await setUp(needsKey);
    await expect(runTurn(kept.options())).rejects.toThrow(/OPENAI_API_KEY/);
    expect(await kept.store.get(kept.session.record.id)).toMatchObject({ status: "active" });
  });

  test("a registry that cannot be written is a warning naming it; the answer still reaches --output-file", async () => {
    const { root, session, warnings, options } = await setUp();
    session.store = {
      ...session.store,
      saveTurn: async () => {
        throw new Error("disk full");
      },
    };
    const running = await runTurn(options({ outputFile: "answer.md" }));
    const result = await running.finished;
    expect(warnings).toEqual([
      `cannot record the session in ${session.store.registryPath}: disk full`,
    ]);
    expect(await readFile(join(root, "answer.md"), "utf8")).toBe("The answer.\n");
    expect(result.answered).toBe(true);
  });

  test("--output-file that cannot be written is reported to the door, not thrown; writeOutput replaces the writer", async () => {
    const { root, options } = await setUp();
    await mkdir(join(root, "taken"));
    const refused = await (await runTurn(options({ outputFile: "taken" }))).finished;
    expect(refused.outputError?.message).toMatch(/EISDIR/);
    expect(refused.outputPath).toBeUndefined();

    const written: string[] = [];
    const custom = await (
      await runTurn(
        options({
          outputFile: "plan.md",
          writeOutput: async (file, answer) => {
            written.push(`${file}: ${answer}`);
            return join(root, "elsewhere.md");
          },
        }),
      )
    ).finished;
    expect(written).toEqual(["plan.md: The answer."]);
    expect(custom.outputPath).toBe(join(root, "elsewhere.md"));
  });
});
