/**
 * Stored plans (spec §2 "Plan"; docs/planning.md): one folder per plan,
 * `<cwd>/.coord/plans/plan_<YYYYMMDD_HHMMSS_ffffff>/`, holding
 *
 * - `plan.json`: `{ plan_id, question, chunks, tasks }`, the tasks with their current status;
 * - `requirements.md`, `design_decisions.md`;
 * - `plan_metadata.json`: `{ plan_id, created_at, updated_at, question, planning_session,
 *   planning_log_dir, status: planning|ready|executing|completed|failed, chunks,
 *   chunks_done, executions: [{ chunk, log_dir, result }] }`;
 * - `frozen/`: `plan.json`, `requirements.md`, `design_decisions.md` as the team agreed them
 *   (never changed);
 * - `execution_log.jsonl`: one JSON object a line (`time`, `type`, …) per step of execution;
 * - `workspace/`: the result of the last executed chunk (the next chunk starts from it).
 *
 * A plan is addressed by its folder, its id (`20260101_120000_123456` or `plan_…`), or `latest`.
 */
import { appendFile, mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { copyTree, type SkippedEntry } from "../copy-tree.js";
import { ConfigError, StoredFileError } from "../errors.js";
import { PlanTask, type PlanDraft } from "../events/index.js";
import { checkPlanTasks, chunksOf } from "../plan/index.js";
import { writeFileAtomic } from "./atomic-write.js";

/** `plan_metadata.json` `status`. */
export const PlanStatus = z.enum(["planning", "ready", "executing", "completed", "failed"]);
export type PlanStatus = z.infer<typeof PlanStatus>;

const PlanFile = z.object({
  plan_id: z.string(),
  question: z.string(),
  chunks: z.number().int().positive(),
  tasks: z.array(PlanTask),
});
export type PlanFile = z.infer<typeof PlanFile>;

const PlanMetadata = z.object({
  plan_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  question: z.string(),
  /** The memory session of the planning run (`session_…`), when there was one. */
  planning_session: z.string().nullable(),
  /** The planning run's log directory, when logged. */
  planning_log_dir: z.string().nullable(),
  status: PlanStatus,
  chunks: z.number().int().positive(),
  /** Chunks executed to the end, in order. */
  chunks_done: z.array(z.number().int().positive()),
  executions: z.array(
    z.object({
      chunk: z.number().int().positive(),
      log_dir: z.string().nullable(),
      result: z.string(),
      time: z.string(),
    }),
  ),
});
export type PlanMetadata = z.infer<typeof PlanMetadata>;

/** A stored plan: where it is and what it holds. */
export interface StoredPlan {
  /** Absolute path of the plan's folder. */
  dir: string;
  plan: PlanFile;
  metadata: PlanMetadata;
  requirements: string;
  designDecisions: string;
}

/** Names of the files in a plan folder. */
export const PLAN_FILES = {
  plan: "plan.json",
  requirements: "requirements.md",
  designDecisions: "design_decisions.md",
  metadata: "plan_metadata.json",
  frozen: "frozen",
  executionLog: "execution_log.jsonl",
  workspace: "workspace",
} as const;

/** `<cwd>/.coord/plans`. */
export function plansRoot(cwd: string): string {
  return join(cwd, ".coord", "plans");
}

const PLAN_DIR_PATTERN = /^plan_(\d{8}_\d{6}_\d{6})$/;

/** `YYYYMMDD_HHMMSS_ffffff` (local time; the last six digits are microseconds). */
export function planIdFor(date: Date, micros: number): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1)}${pad(date.getDate())}_${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}_${pad(date.getMilliseconds() * 1000 + (micros % 1000), 6)}`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes a new plan folder from the team's winning plan; status `ready`.
 * @throws the file system error when the folder cannot be written.
 */
export async function createPlan(options: {
  cwd: string;
  draft: PlanDraft;
  question: string;
  now: Date;
  planningSession?: string | undefined;
  planningLogDir?: string | undefined;
}): Promise<StoredPlan> {
  const root = plansRoot(options.cwd);
  await mkdir(root, { recursive: true });
  let dir = "";
  let planId = "";
  for (let attempt = 0; ; attempt++) {
    planId = planIdFor(options.now, Math.floor(performance.now() * 1000) + attempt);
    dir = join(root, `plan_${planId}`);
    try {
      await mkdir(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 1000) throw error;
    }
  }
  const time = options.now.toISOString();
  const plan: PlanFile = {
    plan_id: planId,
    question: options.question,
    chunks: chunksOf(options.draft.tasks).length,
    tasks: options.draft.tasks.map((task) => ({ ...task, status: "pending" })),
  };
  const metadata: PlanMetadata = {
    plan_id: planId,
    created_at: time,
    updated_at: time,
    question: options.question,
    planning_session: options.planningSession ?? null,
    planning_log_dir: options.planningLogDir ?? null,
    status: "ready",
    chunks: plan.chunks,
    chunks_done: [],
    executions: [],
  };
  const stored: StoredPlan = {
    dir,
    plan,
    metadata,
    requirements: options.draft.requirements,
    designDecisions: options.draft.designDecisions,
  };
  await mkdir(join(dir, PLAN_FILES.frozen));
  for (const folder of [dir, join(dir, PLAN_FILES.frozen)]) {
    await writeFileAtomic(join(folder, PLAN_FILES.plan), json(plan));
    await writeFileAtomic(join(folder, PLAN_FILES.requirements), `${stored.requirements}\n`);
    await writeFileAtomic(join(folder, PLAN_FILES.designDecisions), `${stored.designDecisions}\n`);
  }
  await writeFileAtomic(join(dir, PLAN_FILES.metadata), json(metadata));
  return stored;
}

/**
 * Finds a plan by folder, id (`20260101_120000_123456`, `plan_…`) or `latest` (the newest in
 * `<cwd>/.coord/plans`), and reads it.
 * @throws ConfigError when there is no such plan (naming where it looked and how to make one).
 * @throws StoredFileError when its files are unreadable or not a valid plan (naming the file).
 */
export async function loadPlan(ref: string, cwd: string): Promise<StoredPlan> {
  return readPlanDir(await findPlanDir(ref, cwd));
}

async function findPlanDir(ref: string, cwd: string): Promise<string> {
  const root = plansRoot(cwd);
  if (ref === "latest") {
    const names = (await readdir(root).catch(() => [] as string[]))
      .filter((name) => PLAN_DIR_PATTERN.test(name))
      .sort();
    if (names.length === 0)
      throw new ConfigError(
        `--execute-plan latest: no plan in ${root}; make one with coord --plan "<task>"`,
      );
    return join(root, names.at(-1)!);
  }
  const candidates = [resolve(cwd, ref)];
  if (/^\d{8}_\d{6}_\d{6}$/.test(ref)) candidates.push(join(root, `plan_${ref}`));
  if (PLAN_DIR_PATTERN.test(ref)) candidates.push(join(root, ref));
  for (const candidate of candidates) {
    const found = await stat(join(candidate, PLAN_FILES.plan)).catch(() => undefined);
    if (found?.isFile()) return candidate;
  }
  throw new ConfigError(
    `--execute-plan ${ref}: no plan there; give a plan folder (with plan.json), a plan id from ${root}, or latest`,
  );
}

async function readJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new StoredFileError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoredFileError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StoredFileError(
      `${path}: ${issue.path.join(".") || "(top)"}: ${issue.message}; fix the file or make a new plan with coord --plan`,
    );
  }
  return parsed.data;
}

/** Reads and checks a plan folder. @throws StoredFileError naming the bad file. */
export async function readPlanDir(dir: string): Promise<StoredPlan> {
  const plan = await readJson(join(dir, PLAN_FILES.plan), PlanFile);
  const problems = checkPlanTasks(plan.tasks);
  if (problems.length > 0)
    throw new StoredFileError(
      `${join(dir, PLAN_FILES.plan)} is not a valid plan: ${problems.join("; ")} (fix the file, or make a new plan with coord --plan)`,
    );
  const metadata = await readJson(join(dir, PLAN_FILES.metadata), PlanMetadata);
  const text = (name: string) =>
    readFile(join(dir, name), "utf8").then(
      (value) => value.trim(),
      () => "",
    );
  return {
    dir,
    plan,
    metadata,
    requirements: await text(PLAN_FILES.requirements),
    designDecisions: await text(PLAN_FILES.designDecisions),
  };
}

/** Rewrites `plan.json` and `plan_metadata.json` (`updated_at` set to `now`). */
export async function savePlan(stored: StoredPlan, now: Date): Promise<void> {
  stored.metadata.updated_at = now.toISOString();
  stored.plan.chunks = chunksOf(stored.plan.tasks).length;
  stored.metadata.chunks = stored.plan.chunks;
  await writeFileAtomic(join(stored.dir, PLAN_FILES.plan), json(stored.plan));
  await writeFileAtomic(join(stored.dir, PLAN_FILES.metadata), json(stored.metadata));
}

/** Appends one entry (`{time, type, …}`) to `execution_log.jsonl`. */
export async function appendExecutionLog(
  stored: StoredPlan,
  now: Date,
  entry: { type: string } & Record<string, unknown>,
): Promise<void> {
  await appendFile(
    join(stored.dir, PLAN_FILES.executionLog),
    `${JSON.stringify({ time: now.toISOString(), ...entry })}\n`,
  );
}

/** The plan's `workspace/` folder, when a chunk has left a result there. */
export async function planWorkspace(stored: StoredPlan): Promise<string | undefined> {
  const path = join(stored.dir, PLAN_FILES.workspace);
  return (await stat(path).catch(() => undefined))?.isDirectory() ? path : undefined;
}

/**
 * Replaces the plan's `workspace/` with a copy of `source` (a chunk's result), made like a
 * workspace snapshot (`../copy-tree.ts`): links copied as links, sparse files kept sparse, FIFOs,
 * sockets, devices and oversized files left out.
 * @returns what was left out (empty when everything was copied).
 */
export async function keepWorkspace(stored: StoredPlan, source: string): Promise<SkippedEntry[]> {
  const target = join(stored.dir, PLAN_FILES.workspace);
  await rm(target, { recursive: true, force: true });
  return copyTree(source, target);
}

/** `plan_<id>` of a plan folder. */
export function planDirName(stored: StoredPlan): string {
  return basename(stored.dir);
}
