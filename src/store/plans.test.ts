/**
 * Stored plans (src/store/plans.ts): a plan written and read back, found by folder, id and
 * `latest`, and a `plan.json` that is not a valid plan refused with the file named.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigError, StoredFileError } from "../errors.js";
import type { PlanTask } from "../events/index.js";
import { createPlan, loadPlan, planIdFor } from "./plans.js";

const task = (id: string, dependsOn: string[] = []): PlanTask => ({
  id,
  description: `Do ${id}.`,
  status: "pending",
  depends_on: dependsOn,
  priority: "high",
  verification: "Look.",
  chunk: 1,
});

async function planIn(cwd: string, seconds: number) {
  return createPlan({
    cwd,
    draft: { tasks: [task("T1"), task("T2", ["T1"])], requirements: "R.", designDecisions: "D." },
    question: "Q?",
    now: new Date(2026, 0, 2, 3, 4, seconds, 567),
  });
}

describe("stored plans", () => {
  test("plan ids are YYYYMMDD_HHMMSS_ffffff", () => {
    expect(planIdFor(new Date(2026, 0, 2, 3, 4, 5, 67), 1_234_089)).toBe("20260102_030405_067089");
  });

  test("a plan is found by folder, id, plan_<id> and latest", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-plans-"));
    const older = await planIn(cwd, 5);
    const newer = await planIn(cwd, 6);
    expect(newer.metadata).toMatchObject({ status: "ready", chunks: 1, planning_session: null });
    for (const ref of [newer.dir, newer.plan.plan_id, `plan_${newer.plan.plan_id}`, "latest"])
      expect((await loadPlan(ref, cwd)).dir).toBe(newer.dir);
    const loaded = await loadPlan(older.plan.plan_id, cwd);
    expect(loaded).toEqual(older);
    await expect(loadPlan("20990101_000000_000000", cwd)).rejects.toThrow(ConfigError);
  });

  test("a plan.json with a cycle or an unknown dependency is refused, naming the file", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-plans-"));
    const stored = await planIn(cwd, 5);
    const path = join(stored.dir, "plan.json");
    const plan = JSON.parse(await readFile(path, "utf8")) as { tasks: PlanTask[] };
    plan.tasks[0]!.depends_on = ["T2"];
    plan.tasks.push(task("T3", ["T9"]));
    await writeFile(path, JSON.stringify(plan));
    const error = await loadPlan("latest", cwd).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoredFileError);
    expect((error as Error).message).toBe(
      `${path} is not a valid plan: task T3 depends on T9, which is not a task of the plan; the dependencies form a cycle: T1 → T2 → T1 (fix the file, or make a new plan with coord --plan)`,
    );
  });
});
