/**
 * The plan's rules on their own: the cycle search names a cycle through its tasks, a task is
 * ready only once each dependency is done, and the chunk list has no duplicates.
 */
import { describe, expect, test } from "vitest";
import type { PlanTask } from "../events/index.js";
import { checkPlanTasks, chunksOf, findCycle, readyTasks, renderTaskLines } from "./index.js";

function task(id: string, chunk: number, dependsOn: string[] = []): PlanTask {
  return {
    id,
    description: `do ${id}`,
    status: "pending",
    depends_on: dependsOn,
    priority: "medium",
    verification: `check ${id}`,
    chunk,
  };
}

describe("the plan's rules", () => {
  test("a three-task cycle is named task by task, in the order the tasks would run; an acyclic plan has none", () => {
    const cyclic = [task("T1", 1, ["T3"]), task("T2", 1, ["T1"]), task("T3", 1, ["T2"])];
    expect(findCycle(cyclic)).toEqual(["T1", "T2", "T3", "T1"]);
    expect(checkPlanTasks(cyclic)).toEqual(["the dependencies form a cycle: T1 → T2 → T3 → T1"]);
    expect(findCycle([task("T1", 1), task("T2", 1, ["T1"])])).toBeUndefined();
  });

  test("a task is ready once its dependencies are done, and only in its own chunk", () => {
    const tasks = [task("T1", 1), task("T2", 1, ["T1"]), task("T3", 2, ["T1"])];
    expect(readyTasks(tasks, 1).map((ready) => ready.id)).toEqual(["T1"]);
    const afterT1 = new Map([["T1", "completed" as const]]);
    expect(readyTasks(tasks, 1, afterT1).map((ready) => ready.id)).toEqual(["T2"]);
    expect(readyTasks(tasks, 2, afterT1).map((ready) => ready.id)).toEqual(["T3"]);
    expect(chunksOf([...tasks, task("T4", 1)])).toEqual([1, 2]);
    expect(renderTaskLines([tasks[1]!])).toEqual([
      "- [ ] T2 (chunk 1, medium; after T1): do T2 — verify: check T2",
    ]);
  });
});
