import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { parseConfigText } from "../config/load.js";
import { createSessionStore } from "../sessions/index.js";
import type { ChatViewState } from "../ui/terminal/chat-view.js";
import { createChatController } from "./chat-controller.js";
import { openSession } from "../runner/index.js";

const TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      scripts:
        - match: "first"
          steps:
            - answer: "A1"
            - vote: agent1
            - text: "Final one."
        - match: "second"
          steps:
            - expect_prompt_contains: "Final one."
              answer: "A2"
            - text: "Final two."
  - id: bob
    backend:
      type: scripted
      scripts:
        - match: "first"
          steps:
            - answer: "B1"
            - vote: agent1
        - match: "second"
          steps:
            - expect_prompt_contains: "Final one."
              answer: "B2"
        - match: "slow"
          steps:
            - delay_ms: 120000
              answer: "B3"
`;

async function chat(extra: { outputFile?: string } = {}) {
  const root = await mkdtemp(join(tmpdir(), "coord-chat-"));
  const { config } = parseConfigText(TEAM, { env: {} });
  const session = await openSession({
    home: root,
    sessionId: undefined,
    config,
    configPath: undefined,
    cwd: root,
    kind: "interactive",
  });
  const controller = createChatController({
    config,
    configPath: undefined,
    session,
    flags: { logs: true, debug: false, ...extra },
    cwdContext: "off",
    env: {},
    cwd: root,
    home: root,
    version: "0.0.0",
    argv: [],
  });
  return { controller, root, session };
}

/** Resolves once the view satisfies `ready`. */
function until(
  store: { get(): ChatViewState; subscribe(listener: () => void): () => void },
  ready: (view: ChatViewState) => boolean,
): Promise<ChatViewState> {
  return new Promise((resolve) => {
    if (ready(store.get())) return resolve(store.get());
    const stop = store.subscribe(() => {
      if (ready(store.get())) {
        stop();
        resolve(store.get());
      }
    });
  });
}

const texts = (view: ChatViewState) => view.blocks.map((block) => block.text).join("\n");

describe("chat controller", () => {
  test("turns see the history; Ctrl+R switches to quick; Ctrl+P sets the cwd context", async () => {
    const { controller } = await chat();
    const { store, actions } = controller;
    actions.submit("first");
    let view = await until(store, (v) => v.blocks.some((block) => block.text === "Final one."));
    view = await until(store, (v) => !v.busy);
    expect(view.status).toMatchObject({ turns: 1, historyMessages: 2, refine: true });

    actions.toggleRefine(); // quick: one answer each, alice presents
    actions.cycleCwdContext();
    expect(store.get().status).toMatchObject({ refine: false, cwdContext: "read-only" });
    actions.submit("second");
    view = await until(store, (v) => /Final two\.|failed/.test(texts(v)) && !v.busy);
    expect(texts(view)).toContain("Final two.");
    expect(view.status.turns).toBe(2);

    actions.submit("/inspect 2");
    view = await until(store, (v) => texts(v).includes("Turn 2 (completed): second"));
    expect(texts(view)).toContain("agent2.1 by bob:\n    B2");

    actions.submit("/quit");
    expect(await controller.done).toBe(0);
    expect(store.get().farewell).toMatch(/saved \(2 turns\)/);
  });

  test("the session names its log directory while the first turn runs (coord viewer can tell a dead writer)", async () => {
    const { controller, root, session } = await chat();
    const { store, actions } = controller;
    actions.submit("slow");
    await until(store, (v) => v.busy);
    const sessions = createSessionStore({ home: root });
    await vi.waitFor(
      async () =>
        expect((await sessions.get(session.record.id))?.log_dir).toMatch(
          /agent_outputs[\\/]log_\d{8}_\d{6}/,
        ),
      { timeout: 30_000, interval: 50 },
    );
    expect(store.get().busy).toBe(true);
    actions.interrupt(); // cancels the turn
    await until(store, (v) => !v.busy);
    actions.submit("/quit");
    expect(await controller.done).toBe(0);
  });

  test("/reset starts a new session; unknown commands say what to do", async () => {
    const { controller, session } = await chat();
    const { store, actions } = controller;
    actions.submit("/frobnicate");
    await until(store, (v) => texts(v).includes("unknown command /frobnicate"));
    actions.submit("/reset");
    const view = await until(store, (v) => texts(v).includes("History cleared: new session"));
    expect(view.status.sessionId).not.toBe(session.record.id);
    actions.interrupt(); // idle: arms
    expect(store.get().exitArmed).toBe(true);
    actions.interrupt(); // idle, armed, no cancelled turn: a normal exit
    expect(await controller.done).toBe(0);
  });

  test("a hangup during a turn records it as interrupted before the session closes (as --web and a one-shot run do)", async () => {
    const { controller, root, session } = await chat();
    const { store, actions } = controller;
    actions.submit("slow");
    await until(store, (v) => v.busy);
    await controller.hangup();
    expect(await controller.done).toBe(4);
    const sessions = createSessionStore({ home: root });
    const record = await sessions.get(session.record.id);
    expect(record).toMatchObject({ status: "interrupted", turns: 1 });
    const turns = await sessions.turns(session.record.id);
    expect(turns.map((turn) => [turn.question, turn.status])).toEqual([["slow", "interrupted"]]);
    expect(store.get().farewell).toMatch(/saved \(1 turn\)/);
  });

  test("--output-file holds the latest answered turn's answer; a write that fails is a warning", async () => {
    const first = await chat({ outputFile: "out/answer.md" });
    first.controller.actions.submit("first");
    await until(first.controller.store, (v) => texts(v).includes("Final one.") && !v.busy);
    expect(await readFile(join(first.root, "out", "answer.md"), "utf8")).toBe("Final one.\n");
    first.controller.actions.quit();
    await first.controller.done;

    // A directory where the file should be: the answer is still shown, the write is refused.
    const second = await chat({ outputFile: "taken" });
    await mkdir(join(second.root, "taken"));
    second.controller.actions.submit("first");
    const view = await until(
      second.controller.store,
      (v) => !v.busy && /--output-file/.test(texts(v)),
    );
    expect(texts(view)).toContain("Final one.");
    expect(texts(view)).toMatch(/cannot write --output-file taken: /);
    second.controller.actions.quit();
    await second.controller.done;
  });
});
