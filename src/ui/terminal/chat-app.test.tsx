import { render } from "ink-testing-library";
import { describe, expect, test, vi } from "vitest";
import { ChatApp } from "./chat-app.js";
import type { ChatActions, ChatViewState } from "./chat-view.js";
import { createStateStore } from "./state-store.js";
import { teamState } from "./test-states.js";

const CTRL_C = "\x03";
const CTRL_P = "\x10";
const CTRL_R = "\x12";
const CTRL_D = "\x04";

function idle(): ChatViewState {
  return {
    blocks: [{ id: 1, kind: "summary", text: "coord chat · team.yaml" }],
    run: null,
    busy: false,
    cancelling: false,
    exitArmed: false,
    farewell: null,
    status: {
      sessionId: "session_20250101_120000",
      turns: 1,
      historyMessages: 2,
      refine: true,
      cwdContext: "off",
      team: "3 agents",
    },
  };
}

function mount(state: ChatViewState) {
  const store = createStateStore(state);
  const actions: ChatActions = {
    submit: vi.fn(),
    interrupt: vi.fn(),
    cycleCwdContext: vi.fn(),
    toggleRefine: vi.fn(),
    quit: vi.fn(),
  };
  const app = render(<ChatApp store={store} actions={actions} now={() => 0} tickMs={0} />);
  return { app, store, actions };
}

/** Waits until `check` passes (ink renders and reads keys asynchronously); never a fixed sleep. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 5 });

/** Waits until the app reads its input (ink attaches its key listener after the first render). */
const ready = (app: ReturnType<typeof render>) =>
  until(() => expect(app.stdin.listenerCount("readable")).toBeGreaterThan(0));

describe("ChatApp", () => {
  test("idle: blocks, the input line and the status bar", () => {
    const { app } = mount(idle());
    const frame = app.lastFrame()!;
    expect(frame).toContain("coord chat · team.yaml");
    expect(frame).toContain("Ask the team, or /help");
    expect(frame).toContain("session_20250101_120000 · turn 2 · 2 messages of history");
    expect(frame).toContain("Refine on");
    expect(frame).toContain("cwd: off");
  });

  test("typing and Enter submit the line; a chunk ending in a line break sends too", async () => {
    const { app, actions } = mount(idle());
    await ready(app);
    app.stdin.write("hello");
    await until(() => expect(app.lastFrame()).toContain("› hello"));
    app.stdin.write("\r");
    await until(() => expect(actions.submit).toHaveBeenCalledWith("hello"));
    app.stdin.write("/inspect 1\r");
    await until(() => expect(actions.submit).toHaveBeenLastCalledWith("/inspect 1"));
    expect(actions.submit).toHaveBeenCalledTimes(2);
  });

  test("Ctrl+P, Ctrl+R, Ctrl+C and Ctrl+D reach the chat", async () => {
    const { app, actions } = mount(idle());
    await ready(app);
    app.stdin.write(CTRL_P);
    await until(() => expect(actions.cycleCwdContext).toHaveBeenCalledTimes(1));
    app.stdin.write(CTRL_R);
    await until(() => expect(actions.toggleRefine).toHaveBeenCalledTimes(1));
    app.stdin.write(CTRL_C);
    await until(() => expect(actions.interrupt).toHaveBeenCalledTimes(1));
    app.stdin.write(CTRL_D);
    await until(() => expect(actions.quit).toHaveBeenCalledTimes(1));
    // Each key reached its own action only.
    expect(actions.cycleCwdContext).toHaveBeenCalledTimes(1);
    expect(actions.toggleRefine).toHaveBeenCalledTimes(1);
    expect(actions.interrupt).toHaveBeenCalledTimes(1);
    expect(actions.submit).not.toHaveBeenCalled();
  });

  test("Ctrl+C on a typed line clears it instead of quitting", async () => {
    const { app, actions } = mount(idle());
    await ready(app);
    app.stdin.write("half a question");
    await until(() => expect(app.lastFrame()).toContain("› half a question"));
    app.stdin.write(CTRL_C);
    await until(() => expect(app.lastFrame()).toContain("Ask the team, or /help"));
    expect(actions.interrupt).not.toHaveBeenCalled();
    expect(actions.quit).not.toHaveBeenCalled();
    app.stdin.write(CTRL_C);
    await until(() => expect(actions.interrupt).toHaveBeenCalledTimes(1));
  });

  test("two quick Ctrl+C on a typed line: the first clears it, the second interrupts", async () => {
    const { app, actions } = mount(idle());
    await ready(app);
    app.stdin.write("half a question");
    await until(() => expect(app.lastFrame()).toContain("› half a question"));
    app.stdin.write(CTRL_C);
    app.stdin.write(CTRL_C);
    await until(() => expect(actions.interrupt).toHaveBeenCalledTimes(1));
    await until(() => expect(app.lastFrame()).toContain("Ask the team, or /help"));
  });

  test("busy: the live run replaces the input; the keys line says what Ctrl+C does", async () => {
    const { app, store } = mount(idle());
    store.set({ ...idle(), busy: true, run: teamState(3) });
    await until(() => expect(app.lastFrame()).toContain("Ctrl+C cancel the turn"));
    const frame = app.lastFrame()!;
    expect(frame).not.toContain("Ask the team");
    expect(frame).toContain("alice");
    expect(frame).toContain("Ctrl+C cancel the turn");
    store.set({ ...store.get(), cancelling: true });
    await until(() => expect(app.lastFrame()).toContain("Ctrl+C again to quit"));
  });

  test("the status bar follows Refine and the working-directory context", async () => {
    const { app, store } = mount(idle());
    store.set({ ...idle(), status: { ...idle().status, refine: false, cwdContext: "read-only" } });
    await until(() => expect(app.lastFrame()).toContain("Refine off"));
    expect(app.lastFrame()).toContain("cwd: read-only");
  });

  test("after the end only the farewell remains below the blocks", async () => {
    const { app, store } = mount(idle());
    store.set({ ...idle(), farewell: "Session session_20250101_120000 saved (1 turn)." });
    await until(() => expect(app.lastFrame()).toContain("saved (1 turn)"));
    const frame = app.lastFrame()!;
    expect(frame).toContain("saved (1 turn)");
    expect(frame).not.toContain("Refine");
    expect(frame).not.toContain("Ask the team");
  });
});
