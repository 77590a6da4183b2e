/**
 * `coord --plan`, `--plan-and-execute` and `--execute-plan` (spec §1.4, §2 "Plan", §4.1; issue
 * 11; docs/planning.md). Each phase is one run of `runQuestion` (display, log, session as for a
 * question) in the engine's `planning` or `execution` mode:
 *
 * - planning: the team's winning plan is stored in `.coord/plans/plan_<id>/` (src/store/plans.ts);
 * - execution: one run per chunk, in order, each agent in a workspace that starts from the plan's
 *   `workspace/` (the result of the chunks before); after a chunk the winner's task statuses go
 *   into `plan.json`, its workspace into the plan's `workspace/`, the steps into
 *   `execution_log.jsonl`. A chunk that did not complete leaves the plan resumable: the next
 *   `--execute-plan` starts again at that chunk. At the end, `adherence_report.md`.
 *
 * Exit codes as for a question (docs/architecture.md "Exit codes").
 */
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Config } from "../config/index.js";
import type { ExecutionSettings, HumanChannel } from "../engine/index.js";
import type { PlanTask } from "../events/index.js";
import { chunksOf, countStatuses } from "../plan/index.js";
import { type PreparedRun, writeChunkAnswer } from "../runner/index.js";
import { agentPlanTasks, type RunState, type RunSubscriber } from "../session/index.js";
import {
  appendExecutionLog,
  createPlan,
  keepWorkspace,
  loadPlan,
  planWorkspace,
  savePlan,
  type StoredPlan,
} from "../store/index.js";
import type { CommandIO } from "./io.js";
import type { PlanRequest } from "./plan-flags.js";
import { type RunCommandFlags, runQuestion } from "./run.js";

/** The IO of a planning command: a command's IO plus stdin (`--broadcast human`). */
export interface PlanIO extends CommandIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * Runs a planning request (`planRequest` in ./plan-flags.ts).
 * @returns the exit code of the last run (0 when every phase completed).
 * @throws ConfigError for an unknown plan reference or a config that cannot run.
 */
export async function runPlanCommand(
  request: Exclude<PlanRequest, { kind: "none" }>,
  question: string | undefined,
  flags: RunCommandFlags,
  io: PlanIO,
): Promise<number> {
  if (request.kind === "execute")
    return executePlan(await loadPlan(request.ref, io.cwd), flags, io);
  let settings = request.settings;
  let human: HumanChannel | undefined;
  let runFlags = flags;
  let runIo: PlanIO = io;
  let humanSubscriber: RunSubscriber | undefined;
  if (settings.broadcast === "human") {
    if (flags.automation || io.stdin.isTTY !== true) {
      io.stderr.write(
        `coord: warning: --broadcast human: ${flags.automation ? "--automation has" : "stdin is not a terminal, so there is"} nobody to answer; the agents ask each other instead (--broadcast agents)\n`,
      );
      settings = { ...settings, broadcast: "agents" };
    } else {
      const { holdableOutput, terminalHumanChannel } = await import("./human-channel.js");
      // The progress lines pause while a question waits for its answer.
      const progress = holdableOutput(io.stderr);
      runIo = { ...io, stderr: progress };
      const terminal = terminalHumanChannel(io.stdin, io.stderr, progress);
      human = terminal.channel;
      humanSubscriber = terminal.subscriber;
      // The questions are asked on the terminal, line by line: the live view would tear them.
      runFlags = { ...flags, display: false };
    }
  }
  let stored: StoredPlan | undefined;
  const code = await runQuestion(question!, runFlags, runIo, {
    prepare: (prepared) => withMode(prepared, "planning", flags),
    start: { planning: settings, ...(human ? { human } : {}) },
    ...(humanSubscriber ? { subscribers: [humanSubscriber] } : {}),
    async after({ state, logDir, sessionId }) {
      const plan = winningPlan(state);
      if (plan === undefined) return { automation: [], text: [] };
      stored = await createPlan({
        cwd: io.cwd,
        draft: { ...plan, tasks: [...plan.tasks] },
        question: question!,
        now: new Date(),
        planningSession: sessionId,
        planningLogDir: logDir,
      });
      const shown = relative(io.cwd, stored.dir) || stored.dir;
      return {
        automation: [`PLAN_DIR: ${stored.dir}`, `PLAN_ID: ${stored.plan.plan_id}`],
        text: [
          `Plan: ${shown} (${plan.tasks.length} task${plan.tasks.length === 1 ? "" : "s"}${stored.plan.chunks > 1 ? ` in ${stored.plan.chunks} chunks` : ""}; execute: coord --execute-plan ${stored.plan.plan_id})`,
        ],
      };
    },
  });
  if (code !== 0 || stored === undefined || !request.execute) return code;
  return executePlan(stored, flags, io);
}

/** The winner's plan (the `plan` event of the winning answer), if the run chose one. */
function winningPlan(state: RunState) {
  if (state.endReason !== "completed" || state.winner === null) return undefined;
  return state.plans.find((plan) => plan.label === state.winner!.label);
}

/** The prepared run in a planning mode: every agent (or `--single-agent`'s one). */
function withMode(
  prepared: PreparedRun,
  mode: "planning" | "execution",
  flags: RunCommandFlags,
): PreparedRun {
  const single = flags.singleAgent !== undefined && flags.singleAgent !== false;
  const agentIndexes = single ? prepared.agentIndexes : prepared.config.agents.map((_, i) => i);
  const config = mode === "execution" ? withWorkspaces(prepared.config) : prepared.config;
  return { ...prepared, config, mode, agentIndexes };
}

/** Every agent gets a workspace (`backend.cwd`, default its id): execution works on files. */
function withWorkspaces(config: Config): Config {
  return {
    ...config,
    agents: config.agents.map((agent) =>
      agent.backend.cwd !== undefined
        ? agent
        : { ...agent, backend: { ...agent.backend, cwd: agent.id } },
    ),
  };
}

/**
 * Executes the plan's chunks that are not done yet, one run each.
 * @returns 0 once every chunk is done; the exit code of the chunk run that did not complete.
 */
async function executePlan(
  stored: StoredPlan,
  flags: RunCommandFlags,
  io: PlanIO,
): Promise<number> {
  const shown = relative(io.cwd, stored.dir) || stored.dir;
  const chunks = chunksOf(stored.plan.tasks);
  const todo = chunks.filter((chunk) => !stored.metadata.chunks_done.includes(chunk));
  if (todo.length === 0) {
    io.stderr.write(`coord: plan ${stored.plan.plan_id} is already executed (${shown})\n`);
    return 0;
  }
  if (todo.length < chunks.length)
    io.stderr.write(
      `coord: resuming plan ${stored.plan.plan_id} at chunk ${todo[0]} of ${chunks.length}\n`,
    );
  // --output-file keeps every chunk's answer: the first one written starts the file.
  const output = { written: false };
  for (const chunk of todo) {
    const code = await executeChunk(stored, chunk, chunks.length, flags, io, output);
    if (code !== 0) return code;
  }
  stored.metadata.status = "completed";
  await savePlan(stored, new Date());
  const report = adherenceReport(stored);
  await writeFile(join(stored.dir, "adherence_report.md"), `${report.join("\n")}\n`);
  await appendExecutionLog(stored, new Date(), { type: "plan-completed" });
  if (!flags.automation) io.stderr.write(`${report.slice(2).join("\n")}\n`);
  return 0;
}

async function executeChunk(
  stored: StoredPlan,
  chunk: number,
  chunkCount: number,
  flags: RunCommandFlags,
  io: PlanIO,
  output: { written: boolean },
): Promise<number> {
  stored.metadata.status = "executing";
  await savePlan(stored, new Date());
  await appendExecutionLog(stored, new Date(), { type: "chunk-start", chunk });
  const execution: ExecutionSettings = {
    planId: stored.plan.plan_id,
    chunk,
    chunks: chunkCount,
    tasks: stored.plan.tasks,
    requirements: stored.requirements,
    designDecisions: stored.designDecisions,
  };
  const seed = await planWorkspace(stored);
  return runQuestion(stored.plan.question, flags, io, {
    prepare: (prepared) => withMode(prepared, "execution", flags),
    start: { execution, ...(seed !== undefined ? { workspaceSeed: seed } : {}) },
    writeOutput: async (file, answer) => {
      const first = !output.written;
      output.written = true;
      return writeChunkAnswer(io.cwd, file, { index: chunk, count: chunkCount, first }, answer);
    },
    async after({ state, logDir }) {
      const now = new Date();
      const winner = state.winner?.agentId;
      const done = state.endReason === "completed" && state.finalAnswer !== null && winner;
      if (!done) {
        stored.metadata.status = state.endReason === "interrupted" ? "executing" : "failed";
        stored.metadata.executions.push({
          chunk,
          log_dir: logDir ?? null,
          result: state.endReason ?? "failed",
          time: now.toISOString(),
        });
        await savePlan(stored, now);
        await appendExecutionLog(stored, now, {
          type: "chunk-end",
          chunk,
          result: state.endReason ?? "failed",
        });
        return {
          automation: [`PLAN_DIR: ${stored.dir}`, `PLAN_ID: ${stored.plan.plan_id}`],
          text: [
            `Plan: chunk ${chunk} of ${chunkCount} did not complete; resume: coord --execute-plan ${stored.plan.plan_id}`,
          ],
        };
      }
      const tasks = agentPlanTasks(state, winner) ?? stored.plan.tasks.slice();
      await logTaskChanges(stored, tasks, winner, now);
      stored.plan.tasks = tasks;
      const result = state.snapshots.findLast((snapshot) => snapshot.label.endsWith(".final"));
      const skipped = result ? await keepWorkspace(stored, result.workspace) : [];
      const skippedNote = skipped.length
        ? [
            `Plan: the workspace copy left out ${skipped.map((entry) => `${entry.path} (${entry.reason})`).join(", ")}`,
          ]
        : [];
      stored.metadata.chunks_done.push(chunk);
      stored.metadata.executions.push({
        chunk,
        log_dir: logDir ?? null,
        result: "completed",
        time: now.toISOString(),
      });
      await savePlan(stored, now);
      await appendExecutionLog(stored, now, {
        type: "chunk-end",
        chunk,
        result: "completed",
        winner,
      });
      const mine = tasks.filter((task) => task.chunk === chunk);
      const counts = countStatuses(mine);
      return {
        automation: [`PLAN_DIR: ${stored.dir}`, `PLAN_ID: ${stored.plan.plan_id}`],
        text: [
          `Plan: chunk ${chunk} of ${chunkCount} done: ${counts.verified} verified, ${counts.completed} completed, ${counts.pending + counts.in_progress} not done (${relative(io.cwd, stored.dir) || stored.dir})`,
          ...skippedNote,
        ],
      };
    },
  });
}

/** Appends the winner's task changes to `execution_log.jsonl`. */
async function logTaskChanges(
  stored: StoredPlan,
  tasks: readonly PlanTask[],
  agentId: string,
  now: Date,
): Promise<void> {
  const before = new Map(stored.plan.tasks.map((task) => [task.id, task]));
  for (const task of tasks) {
    const old = before.get(task.id);
    if (old === undefined)
      await appendExecutionLog(stored, now, {
        type: "task-added",
        task_id: task.id,
        agent: agentId,
        description: task.description,
        reason: task.added_reason ?? "",
      });
    else if (old.status !== task.status)
      await appendExecutionLog(stored, now, {
        type: "task-status",
        task_id: task.id,
        agent: agentId,
        from: old.status,
        to: task.status,
        ...(task.notes !== undefined ? { notes: task.notes } : {}),
      });
  }
}

/** `adherence_report.md`: tasks completed, verified, added during execution and skipped. */
function adherenceReport(stored: StoredPlan): string[] {
  const tasks = stored.plan.tasks;
  const counts = countStatuses(tasks);
  const added = tasks.filter((task) => task.added_reason !== undefined);
  const skipped = tasks.filter(
    (task) => task.status === "pending" || task.status === "in_progress",
  );
  return [
    `# Plan ${stored.plan.plan_id}: adherence`,
    "",
    `Plan ${stored.plan.plan_id} executed: ${tasks.length} task${tasks.length === 1 ? "" : "s"}, ${counts.verified} verified, ${counts.completed} completed without verification, ${added.length} added during execution, ${skipped.length} skipped.`,
    ...added.map((task) => `- added ${task.id}: ${task.description} (why: ${task.added_reason})`),
    ...skipped.map(
      (task) => `- skipped ${task.id}: ${task.description}${task.notes ? ` (${task.notes})` : ""}`,
    ),
    `Result: ${join(stored.dir, "workspace")}`,
  ];
}
