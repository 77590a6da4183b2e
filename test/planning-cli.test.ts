/**
 * Planning end to end through the built CLI (docs/planning.md): `--plan` with a
 * scripted team (a plan with a cycle refused and corrected, the winner stored in
 * `.coord/plans/`), `--execute-plan` chunk by chunk with the file tools (a failed chunk leaves the
 * plan resumable), `--plan-and-execute --plan-chunks 2` and an interrupted execution resumed
 * against the fake OpenAI server on 127.0.0.1, and the planning flags' errors.
 */
import { copyFile, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { LogsSummaryJson } from "../src/logs/index.js";
import type { PlanFile, PlanMetadata } from "../src/store/index.js";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  type FakeRequest,
  startFakeOpenAIServer,
  summarizeRequest,
} from "./support/fake-openai-server.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "planning");

async function sandboxWith(...files: string[]) {
  const box = await makeSandbox();
  for (const file of files) await copyFile(join(FIXTURES, file), join(box.cwd, file));
  return box;
}

async function onlyPlanDir(cwd: string): Promise<string> {
  const names = await readdir(join(cwd, ".coord", "plans"));
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^plan_\d{8}_\d{6}_\d{6}$/);
  return join(cwd, ".coord", "plans", names[0]!);
}

const readPlan = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "plan.json"), "utf8")) as PlanFile;
const readMetadata = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "plan_metadata.json"), "utf8")) as PlanMetadata;
const statuses = (plan: { tasks: { id: string; status: string }[] }) =>
  Object.fromEntries(plan.tasks.map((task) => [task.id, task.status]));

describe("--plan and --execute-plan with a scripted team", () => {
  test("--plan --plan-steps 5 stores the winning plan; --execute-plan runs its chunks in order and resumes a failed one", async () => {
    const box = await sandboxWith("plan-team.yaml", "execute-chunk1.yaml", "execute-chunk2.yaml");
    const planned = await runCli(
      ["--config", "plan-team.yaml", "--plan", "--plan-steps", "5", "Build a tiny site"],
      box,
    );
    expect(planned.stderr).toContain(
      "The plan was not accepted: the dependencies form a cycle: T1 → T2 → T1; the plan has 2 tasks; --plan-steps asks for 5 (4 to 6).",
    );
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain("## Tasks (5 in 2 chunks)");
    const dir = await onlyPlanDir(box.cwd);
    const id = dir.split("plan_")[1]!;
    expect(planned.stderr).toContain(`execute: coord --execute-plan ${id}`);
    const plan = await readPlan(dir);
    expect(plan).toMatchObject({ plan_id: id, question: "Build a tiny site", chunks: 2 });
    expect(plan.tasks.map((task) => `${task.id}@${task.chunk}:${task.status}`)).toEqual([
      "T1@1:pending",
      "T2@1:pending",
      "T3@2:pending",
      "T4@2:pending",
      "T5@2:pending",
    ]);
    expect(await readFile(join(dir, "requirements.md"), "utf8")).toBe(
      "A tiny site with two pages.\n",
    );
    expect(await readFile(join(dir, "design_decisions.md"), "utf8")).toBe(
      "Plain HTML, one stylesheet.\n",
    );
    expect(await readPlan(join(dir, "frozen"))).toEqual(plan);
    const metadata = await readMetadata(dir);
    expect(metadata).toMatchObject({ plan_id: id, status: "ready", chunks_done: [] });
    expect(metadata.planning_session).toMatch(/^session_/);

    // The chunk-1 script does chunk 1; in chunk 2 it fails (its prompt is not chunk 1's).
    const first = await runCli(
      ["--config", "execute-chunk1.yaml", "--execute-plan", "latest"],
      box,
    );
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("Plan 20");
    expect(first.stderr).toContain(
      `chunk 2 of 2 did not complete; resume: coord --execute-plan ${id}`,
    );
    let progress = await readMetadata(dir);
    expect(progress).toMatchObject({ status: "failed", chunks_done: [1] });
    expect(statuses(await readPlan(dir))).toEqual({
      T1: "verified",
      T2: "verified",
      T3: "pending",
      T4: "pending",
      T5: "pending",
    });
    expect((await readdir(join(dir, "workspace"))).sort()).toEqual(["index.html", "style.css"]);

    // Resumed at chunk 2, in a workspace that starts from chunk 1's result.
    const second = await runCli(["--config", "execute-chunk2.yaml", "--execute-plan", id], box);
    expect(second.stderr).toContain(`resuming plan ${id} at chunk 2 of 2`);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      "executed: 6 tasks, 5 verified, 0 completed without verification, 1 added during execution, 1 skipped.",
    );
    progress = await readMetadata(dir);
    expect(progress).toMatchObject({ status: "completed", chunks_done: [1, 2] });
    expect(progress.executions.map((run) => `${run.chunk}:${run.result}`)).toEqual([
      "1:completed",
      "2:failed",
      "2:completed",
    ]);
    const final = await readPlan(dir);
    expect(statuses(final)).toEqual({
      T1: "verified",
      T2: "verified",
      T3: "verified",
      T4: "verified",
      T5: "pending",
      A1: "verified",
    });
    expect(final.tasks.find((task) => task.id === "T5")?.notes).toBe("no time for a README");
    expect((await readdir(join(dir, "workspace"))).sort()).toEqual([
      "about.html",
      "index.html",
      "style.css",
    ]);
    expect(await readFile(join(dir, "workspace", "index.html"), "utf8")).toContain("about.html");
    const log = (await readFile(join(dir, "execution_log.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; chunk?: number; task_id?: string });
    expect(log.map((entry) => `${entry.type}${entry.chunk ?? ""}${entry.task_id ?? ""}`)).toEqual([
      "chunk-start1",
      "task-statusT1",
      "task-statusT2",
      "chunk-end1",
      "chunk-start2",
      "chunk-end2",
      "chunk-start2",
      "task-statusT3",
      "task-statusT4",
      "task-addedA1",
      "chunk-end2",
      "plan-completed",
    ]);
    const report = await readFile(join(dir, "adherence_report.md"), "utf8");
    expect(report).toContain("- added A1: Add a favicon (why: browsers ask for it)");
    expect(report).toContain("- skipped T5: Write README.md (no time for a README)");

    // coord logs shows the last chunk's progress.
    const logs = await runCli(["logs", "summary", "--json"], box);
    expect((JSON.parse(logs.stdout) as LogsSummaryJson).plan).toEqual({
      plans_submitted: 0,
      winning_tasks: null,
      questions: 0,
      questions_answered: 0,
      execution: {
        plan_id: id,
        chunk: 2,
        chunks: 2,
        agents: [{ id: "worker", tasks: 4, done: 3, verified: 3, added: 1 }],
      },
    });
    const text = await runCli(["logs", "summary"], box);
    expect(text.stdout).toContain(
      `Plan ${id}, chunk 2 of 2:\n  worker  3/4 tasks done, 3 verified, 1 added`,
    );

    const again = await runCli(["--config", "execute-chunk2.yaml", "--execute-plan", id], box);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`plan ${id} is already executed`);
  }, 120_000);

  test("@examples/scripted_planning --plan-and-execute --plan-chunks 2: two agents plan, then write the files chunk by chunk", async () => {
    const box = await makeSandbox();
    const result = await runCli(
      [
        "--config",
        "@examples/scripted_planning",
        "--plan-and-execute",
        "--plan-chunks",
        "2",
        "--automation",
        "Write hello.txt and world.txt",
      ],
      box,
    );
    expect(result.code).toBe(0);
    const dir = await onlyPlanDir(box.cwd);
    const id = dir.split("plan_")[1]!;
    // One PLAN_DIR/PLAN_ID pair per run: planning, chunk 1, chunk 2.
    expect(result.stdout.split(`PLAN_DIR: ${dir}\nPLAN_ID: ${id}\n`)).toHaveLength(4);
    expect(result.stdout.match(/^COMPLETED: true$/gm)).toHaveLength(3);
    expect(statuses(await readPlan(dir))).toEqual({ T1: "verified", T2: "verified" });
    expect(await readFile(join(dir, "workspace", "hello.txt"), "utf8")).toBe("hello\n");
    expect(await readFile(join(dir, "workspace", "world.txt"), "utf8")).toBe("world\n");
    expect(await readMetadata(dir)).toMatchObject({ status: "completed", chunks_done: [1, 2] });
  }, 120_000);

  test("--broadcast human with --automation falls back to agents, saying so: the other agent replies", async () => {
    const box = await sandboxWith("ask-agents.yaml");
    const result = await runCli(
      [
        "--config",
        "ask-agents.yaml",
        "--plan",
        "--broadcast",
        "human",
        "--automation",
        "Build a site",
      ],
      box,
    );
    expect(result.stderr).toContain(
      "coord: warning: --broadcast human: --automation has nobody to answer; the agents ask each other instead (--broadcast agents)",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^PLAN_DIR: .*plan_\d{8}_\d{6}_\d{6}$/m);
    const dir = await onlyPlanDir(box.cwd);
    expect(await readFile(join(dir, "design_decisions.md"), "utf8")).toBe(
      "Plain HTML, as bob said.\n",
    );
  }, 120_000);

  test("planning flags without a planning mode, and bad combinations, exit 1 naming the fix", async () => {
    const box = await sandboxWith("plan-team.yaml");
    const cases: [string[], string][] = [
      [
        ["--plan-steps", "3", "Q?"],
        "--plan-steps steers planning: it goes with --plan or --plan-and-execute",
      ],
      [
        ["--plan-depth", "deep", "Q?"],
        "--plan-depth steers planning: it goes with --plan or --plan-and-execute",
      ],
      [["--plan-chunks", "2", "Q?"], "--plan-chunks steers planning"],
      [["--broadcast", "agents", "Q?"], "--broadcast steers planning"],
      [["--execute-plan", "latest", "--plan-steps", "2"], "--plan-steps steers planning"],
      [
        ["--plan", "--execute-plan", "latest", "Q?"],
        "--plan and --execute-plan cannot be combined",
      ],
      [["--plan"], '--plan needs a task: coord --plan "<task>"'],
      [["--plan", "--quick", "Q?"], "--plan does not go with --quick"],
      [
        ["--plan", "--plan-steps", "2", "--plan-chunks", "3", "Q?"],
        "--plan-chunks 3 is more than --plan-steps 2",
      ],
      [["--execute-plan", "latest"], "--execute-plan latest: no plan in"],
      [["--execute-plan", "nope"], "--execute-plan nope: no plan there"],
      [
        ["--execute-plan", "latest", "Q?"],
        "--execute-plan runs the plan's own task: drop the question",
      ],
      [["--plan", "--plan-steps", "0", "Q?"], "--plan-steps"],
      [["--plan-and-execute", "--json", "Q?"], "--json gives the result of one run"],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(["--config", "plan-team.yaml", ...args], box);
      expect({ args, code: result.code }).toEqual({ args, code: 1 });
      expect(result.stderr).toContain(message);
    }
  }, 120_000);
});

/**
 * A fake model that plans and executes: with `submit_plan` offered it first submits a plan with
 * an unknown dependency, then (told why) a valid one in two chunks; with the plan tools it does
 * its chunk's task (a file) and verifies it, then answers; with no tools it presents.
 */
function plannerModel(options: { slowChunk2: () => boolean }) {
  return async (request: FakeRequest): Promise<FakeReply> => {
    const summary = summarizeRequest(request);
    if (summary.toolNames.includes("submit_plan")) {
      const refused = summary.text.includes("The plan was not accepted");
      const tasks = [
        { id: "T1", description: "Write hello.txt", depends_on: refused ? [] : ["T0"] },
        { id: "T2", description: "Write world.txt", depends_on: ["T1"] },
      ].map((task, index) => ({
        ...task,
        priority: "high",
        verification: "read the file back",
        chunk: index + 1,
      }));
      return {
        toolCalls: [
          {
            name: "submit_plan",
            arguments: { tasks, requirements: "Two files.", design_decisions: "Plain text." },
          },
        ],
      };
    }
    if (summary.toolNames.includes("update_task_status")) {
      const chunk = /chunk (\d) of 2/.exec(summary.system)?.[1];
      const [id, file] = chunk === "1" ? ["T1", "hello.txt"] : ["T2", "world.txt"];
      if (summary.text.includes(`${id} is verified.`))
        return { toolCalls: [{ name: "new_answer", arguments: { content: `Did ${id}.` } }] };
      return {
        ...(chunk === "2" && options.slowChunk2() ? { delayMs: 60_000 } : {}),
        toolCalls: [
          { name: "update_task_status", arguments: { task_id: id, status: "in_progress" } },
          { name: "write_file", arguments: { path: file, content: `${file}\n` } },
          { name: "update_task_status", arguments: { task_id: id, status: "completed" } },
          {
            name: "update_task_status",
            arguments: { task_id: id, status: "verified", notes: "read it back" },
          },
        ],
      };
    }
    return { text: "Done." };
  };
}

let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe("--plan-and-execute against a fake OpenAI model", () => {
  test("--plan-chunks 2: the refused plan is corrected, both chunks run in order; an interrupted execution resumes", async () => {
    let slow = true;
    provider = await startFakeOpenAIServer(plannerModel({ slowChunk2: () => slow }));
    const box = await makeSandbox();
    const { writeFile } = await import("node:fs/promises");
    await writeFile(
      join(box.cwd, "solo.yaml"),
      `agents:\n  - id: solo\n    backend: { type: openai, model: gpt-4.1-mini, base_url: "${provider.url}", api_key: sk-test }\nui: { display_type: simple }\n`,
    );
    const interrupted = await runCli(
      [
        "--config",
        "solo.yaml",
        "--plan-and-execute",
        "--plan-chunks",
        "2",
        "--no-display",
        "Write two files",
      ],
      {
        ...box,
        onSpawn(child) {
          let seen = "";
          child.stderr!.on("data", (chunk: Buffer) => {
            seen += chunk.toString("utf8");
            if (seen.includes("chunk 2 of 2:")) {
              seen = "";
              setTimeout(() => child.kill("SIGINT"), 500);
            }
          });
        },
      },
    );
    expect(interrupted.stderr).toContain("depends on T0, which is not a task of the plan");
    expect(interrupted.code).toBe(4);
    const dir = await onlyPlanDir(box.cwd);
    const id = dir.split("plan_")[1]!;
    expect(await readMetadata(dir)).toMatchObject({
      status: "executing",
      chunks_done: [1],
    });
    // The refusal reached the model as the submit_plan call's tool error.
    const refusal = provider.requests.find((request) =>
      JSON.stringify(request.body).includes("which is not a task of the plan"),
    );
    expect(refusal).toBeDefined();

    slow = false;
    const resumed = await runCli(
      ["--config", "solo.yaml", "--execute-plan", id, "--automation"],
      box,
    );
    expect(resumed.stderr).toContain(`resuming plan ${id} at chunk 2 of 2`);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`PLAN_DIR: ${dir}\nPLAN_ID: ${id}\n`);
    expect(resumed.stdout).toContain("COMPLETED: true");
    expect(statuses(await readPlan(dir))).toEqual({
      T1: "verified",
      T2: "verified",
    });
    expect((await readdir(join(dir, "workspace"))).sort()).toEqual(["hello.txt", "world.txt"]);
    expect(await readMetadata(dir)).toMatchObject({
      status: "completed",
      chunks_done: [1, 2],
    });
  }, 180_000);
});
