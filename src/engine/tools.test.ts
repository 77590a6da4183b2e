/**
 * The engine's side of agents that act (docs/tools.md): per-agent tools with the calling agent and
 * phase, workspace snapshots queued at the moment an answer is accepted and complete before a
 * peer's next view refresh, the presenter's tool loop (the only phase that may write to `write`
 * context paths), the final snapshot, and runner notices as `warning` events. Virtual clock, fake
 * workspace hooks: no I/O.
 */
import { describe, expect, test } from "vitest";
import type { ScriptedStep } from "../backends/index.js";
import { createVirtualClock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import type {
  LocalTool,
  NoticeSource,
  SnapshotReport,
  ToolCallContext,
  ToolNotice,
  WorkspaceHooks,
} from "../tools/index.js";
import { runCoordination, type RunCoordinationOptions } from "./run.js";
import { DEFAULT_SETTINGS, scriptedTeam, trace } from "./test-helpers.js";

/** A tool that records who called it, in which phase. */
function recordingTool(name: string, calls: (ToolCallContext & { input: unknown })[]): LocalTool {
  return {
    spec: { name, description: `${name} tool`, inputSchema: { type: "object" } },
    execute: (input, context) => {
      calls.push({ ...context, input });
      return Promise.resolve(`${name} done`);
    },
  };
}

/**
 * Fake workspaces sharing one in-order queue, as the runner's do (`src/tools/workspaces.ts`): the
 * log says when the engine asked for each step and when the step finished.
 */
function fakeWorkspaces(
  ids: readonly string[],
  log: string[],
  clock: { sleep(ms: number): Promise<void> },
): Record<string, WorkspaceHooks> {
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(what: string, task: () => Promise<T>): Promise<T> => {
    log.push(`ask ${what}`);
    const next = queue.then(task).finally(() => log.push(`done ${what}`));
    queue = next;
    return next;
  };
  return Object.fromEntries(
    ids.map((id) => [
      id,
      {
        refreshView: () => enqueue(`${id} refresh`, async () => undefined),
        snapshot: (label: string) =>
          enqueue(`${id} snapshot ${label}`, async (): Promise<SnapshotReport> => {
            await clock.sleep(5); // copying takes time
            return { workspace: `/ws/${id}`, files: 1, bytes: 3 };
          }),
      },
    ]),
  );
}

async function run(
  scripts: Record<string, ScriptedStep[]>,
  options: {
    tools?: Record<string, LocalTool[]>;
    workspaces?: Record<string, WorkspaceHooks>;
    extra?: Partial<RunCoordinationOptions>;
    clock?: ReturnType<typeof createVirtualClock>;
  } = {},
) {
  const clock = options.clock ?? createVirtualClock();
  const team = scriptedTeam(scripts, clock);
  const agents = team.agents.map((agent) => ({
    ...agent,
    tools: options.tools?.[agent.id],
    workspace: options.workspaces?.[agent.id],
  }));
  const events: CoordEvent[] = [];
  for await (const event of runCoordination({
    runId: "run_test",
    question: "Write the report.",
    mode: "voting",
    orchestratorTimeoutMs: 1_800_000,
    clock,
    settings: DEFAULT_SETTINGS,
    agents,
    ...options.extra,
  })) {
    events.push(event);
  }
  for (const backend of Object.values(team.backends)) backend.assertDone();
  return { events, backends: team.backends };
}

describe("tools per agent", () => {
  test("each agent gets its own tools; calls carry the agent and the phase", async () => {
    const calls: (ToolCallContext & { input: unknown })[] = [];
    const { events, backends } = await run(
      {
        a: [
          { tool_calls: [{ name: "write_file", input: { path: "x" } }] },
          { answer: "done" },
          { vote: "agent1", reason: "r" },
          { tool_calls: [{ name: "write_file", input: { path: "final" } }] },
          { text: "Final: done." },
        ],
        b: [{ answer: "also done" }, { vote: "agent1", reason: "r" }],
      },
      { tools: { a: [recordingTool("write_file", calls)] } },
    );
    expect(backends.a!.requests[0]!.tools.map((tool) => tool.name)).toEqual([
      "new_answer",
      "write_file",
    ]);
    expect(backends.b!.requests[0]!.tools.map((tool) => tool.name)).toEqual(["new_answer"]);
    expect(calls.map(({ agentId, presenting, input }) => ({ agentId, presenting, input }))).toEqual(
      [
        { agentId: "a", presenting: false, input: { path: "x" } },
        { agentId: "a", presenting: true, input: { path: "final" } },
      ],
    );
    // The presenter saw the tool's result and then wrote its final answer.
    const presentation = backends.a!.requests[4]!;
    expect(presentation.toolChoice).toBe("auto");
    expect(presentation.system).toContain("you alone may now write to the context paths");
    expect(presentation.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
    ]);
    expect(
      trace(events)
        .filter((line) => line.startsWith("a "))
        .slice(-8),
    ).toEqual([
      "a round-start r3.1 final [agent1.1,agent2.1]",
      "a usage r3",
      "a tool-call write_file",
      "a tool-result write_file",
      "a final Final: done.",
      "a usage r3",
      "a round-end r3 final",
      "a final-answer agent1.final presentation: Final: done.",
    ]);
    const result = events.find(
      (event) => event.type === "tool-result" && event.toolName === "write_file",
    );
    expect(result).toMatchObject({ output: "write_file done", isError: false });
  });
});

describe("workspace snapshots", () => {
  test("queued when the answer is accepted, complete before a peer's next view refresh, and final", async () => {
    const clock = createVirtualClock();
    const log: string[] = [];
    const { events } = await run(
      {
        a: [{ answer: "A" }, { vote: "agent1", reason: "r" }, { text: "Final A." }],
        b: [
          { delay_ms: 20, answer: "B" },
          { vote: "agent1", reason: "r" },
        ],
      },
      { clock, workspaces: fakeWorkspaces(["a", "b"], log, clock) },
    );
    // Each snapshot is asked for as its answer is accepted, before the next refresh is asked
    // for, so the in-order queue completes it first.
    expect(log).toEqual([
      "ask a refresh",
      "ask b refresh",
      "done a refresh",
      "done b refresh",
      "ask a snapshot agent1.1",
      "done a snapshot agent1.1",
      "ask b snapshot agent2.1",
      "ask a refresh",
      "ask b refresh",
      "done b snapshot agent2.1",
      "done a refresh",
      "done b refresh",
      "ask a refresh",
      "done a refresh",
      "ask a snapshot agent1.final",
      "done a snapshot agent1.final",
    ]);
    const snapshots = events.filter((event) => event.type === "workspace-snapshot");
    expect(snapshots.map((event) => [event.agentId, event.label])).toEqual([
      ["a", "agent1.1"],
      ["b", "agent2.1"],
      ["a", "agent1.final"],
    ]);
    expect(snapshots[2]).toMatchObject({ workspace: "/ws/a", files: 1, bytes: 3 });
    // The final snapshot comes after the final answer, before the end.
    expect(trace(events).slice(-3)).toEqual([
      "a final-answer agent1.final presentation: Final A.",
      "a workspace-snapshot",
      "- run-end completed",
    ]);
  });
});

describe("the presentation", () => {
  test("runs in single-agent mode when the presenter must write (write context paths)", async () => {
    const { events } = await run(
      { solo: [{ answer: "draft" }, { text: "Written." }] },
      { extra: { mode: "single", presenterWrites: true } },
    );
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      content: "Written.",
      source: "presentation",
    });
  });

  test("text written before a tool call is a step; the answer is the last text", async () => {
    const calls: (ToolCallContext & { input: unknown })[] = [];
    const { events } = await run(
      {
        solo: [
          { answer: "draft" },
          { text: "Let me write the file first.", tool_calls: [{ name: "write_file", input: {} }] },
          { text: "The report is written." },
        ],
      },
      {
        tools: { solo: [recordingTool("write_file", calls)] },
        extra: { mode: "single", presenterWrites: true },
      },
    );
    expect(calls).toHaveLength(1);
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      content: "The report is written.",
      source: "presentation",
    });
  });

  test("a presenter that keeps calling tools is stopped after the step cap", async () => {
    const calls: (ToolCallContext & { input: unknown })[] = [];
    const endless = Array.from({ length: 11 }, () => ({
      tool_calls: [{ name: "look", input: {} }],
    }));
    const { backends, events } = await run(
      { solo: [{ answer: "draft" }, ...endless, { text: "Enough." }] },
      {
        tools: { solo: [recordingTool("look", calls)] },
        extra: { mode: "single", presenterWrites: true },
      },
    );
    expect(calls).toHaveLength(11);
    expect(backends.solo!.requests.at(-1)!.toolChoice).toBe("none");
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      content: "Enough.",
    });
  });
});

describe("notices", () => {
  test("runner notices become warning events between run-start and run-end", async () => {
    let listener: ((notice: ToolNotice) => void) | undefined;
    const notices: NoticeSource = {
      subscribe(next) {
        next({ agentId: "a", source: "mcp/geo", message: "MCP server geo did not start" });
        listener = next;
        return () => (listener = undefined);
      },
    };
    const { events } = await run({ a: [{ answer: "A" }] }, { extra: { mode: "single", notices } });
    expect(trace(events).slice(0, 2)).toEqual([
      "- run-start single agent1",
      "a warning mcp/geo: MCP server geo did not start",
    ]);
    expect(events[1]).toMatchObject({ source: "mcp/geo", message: "MCP server geo did not start" });
    expect(listener).toBeUndefined();
  });
});
