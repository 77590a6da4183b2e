/**
 * Execution mode (docs/planning.md) on the virtual clock: the plan tools refuse
 * what the plan does not allow (a later chunk, an unmet dependency, verifying before completing,
 * an unknown task) as tool errors, an answer is refused while the chunk has unfinished work, and
 * each agent keeps its own copy of the plan; the team votes on the results as usual.
 */
import { describe, expect, test } from "vitest";
import type { ScriptedStep } from "../backends/index.js";
import type { CoordEvent, PlanTask } from "../events/index.js";
import type { ExecutionSettings } from "./modes/plan-settings.js";
import { runScripted, trace } from "./test-helpers.js";

const task = (id: string, chunk: number, dependsOn: string[] = []): PlanTask => ({
  id,
  description: `Do ${id}.`,
  status: "pending",
  depends_on: dependsOn,
  priority: "medium",
  verification: `Check ${id}.`,
  chunk,
});

const execution: ExecutionSettings = {
  planId: "20260101_120000_000001",
  chunk: 1,
  chunks: 2,
  tasks: [task("T1", 1), task("T2", 1, ["T1"]), task("T3", 2, ["T2"])],
  requirements: "It works.",
  designDecisions: "Small.",
};

const status = (id: string, value: string, notes?: string) => ({
  name: "update_task_status",
  input: { task_id: id, status: value, ...(notes ? { notes } : {}) },
});

const ofType = <T extends CoordEvent["type"]>(events: CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);

describe("execution mode", () => {
  test("plan tools refuse what the plan does not allow; an answer waits for the chunk's work; the team votes", async () => {
    const steps: Record<string, ScriptedStep[]> = {
      a: [
        {
          tool_calls: [
            status("T2", "in_progress"),
            status("T3", "in_progress"),
            status("T1", "verified"),
            status("T9", "completed"),
            status("T1", "in_progress"),
          ],
        },
        { answer: "Too early." },
        {
          tool_calls: [
            status("T1", "completed"),
            status("T1", "verified", "checked"),
            {
              name: "add_task",
              input: { description: "Extra.", verification: "Look.", reason: "needed" },
            },
            status("T2", "pending", "cannot: no access"),
            status("A1", "completed"),
            status("A1", "verified"),
          ],
        },
        { answer: "T1 done, T2 skipped, A1 added." },
        { vote: "agent1" },
        { text: "Final." },
      ],
      b: [
        { delay_ms: 5000, tool_calls: [status("T1", "in_progress")] },
        { tool_calls: [status("T1", "completed"), status("T1", "verified")] },
        { tool_calls: [status("T2", "in_progress"), status("T2", "completed")] },
        { tool_calls: [status("T2", "verified")] },
        { answer: "T1 and T2 done." },
        { vote: "agent1" },
      ],
    };
    const { events, backends } = await runScripted(steps, {
      mode: "execution",
      settings: { execution },
    });
    for (const backend of Object.values(backends)) backend.assertDone();
    const errors = ofType(events, "tool-result")
      .filter((event) => event.isError)
      .map((event) => `${event.agentId} ${event.output}`);
    expect(errors).toEqual([
      "a T2 depends on T1, not done yet: do it first.",
      "a T3 belongs to chunk 2; this run executes chunk 1: leave it for later.",
      "a T1 is pending: complete it first, then verify it.",
      'a No task "T9" in the plan; get_task_plan lists the tasks.',
      // The refused answer is the new_answer call's tool error.
      "a Not yet: T1 is still in progress (finish it, or set it back to pending and say why); T2 is not done (do it, or set it to pending with notes saying why you cannot).",
    ]);
    expect(ofType(events, "workflow-invalid").map((event) => event.message)).toEqual([
      "Not yet: T1 is still in progress (finish it, or set it back to pending and say why); T2 is not done (do it, or set it to pending with notes saying why you cannot).",
    ]);
    expect(ofType(events, "plan-execution")).toMatchObject([{ chunk: 1, chunks: 2 }]);
    // Each agent has its own copy: b's T1 is independent of a's.
    expect(trace(events).filter((line) => / (task-status|task-added|winner) /.test(line))).toEqual([
      "a task-status T1 in_progress",
      "a task-status T1 completed",
      "a task-status T1 verified",
      "a task-added A1 (needed)",
      "a task-status T2 pending",
      "a task-status A1 completed",
      "a task-status A1 verified",
      "b task-status T1 in_progress",
      "b task-status T1 completed",
      "b task-status T1 verified",
      "b task-status T2 in_progress",
      "b task-status T2 completed",
      "b task-status T2 verified",
      "a winner agent1 agent1.1 votes=2 votes",
    ]);
    expect(backends.a!.requests[0]!.system).toContain(
      "chunk 1 of 2 of plan 20260101_120000_000001",
    );
    expect(backends.a!.requests[0]!.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["new_answer", "get_ready_tasks", "update_task_status", "add_task"]),
    );
  });
});
