/**
 * `coord eval DATASET --config TEAM` from options to report (docs/eval.md): loads the team, the
 * data set and the scorer, opens the results file (resuming an interrupted eval), shows the cost
 * estimate of what is left and asks to go on, runs the phases (src/eval/run-eval.ts), and builds
 * the report (written to `<eval dir>/report.json`).
 */
import { createHash } from "node:crypto";
import { basename, extname, join, resolve } from "node:path";
import { systemClock } from "../clock.js";
import { ConfigError } from "../errors.js";
import { chooseMode, defaultLogRoot, type PreparedRun, prepareRun } from "../runner/index.js";
import { writeFileAtomic } from "../store/index.js";
import { formatCost, formatCount } from "../ui/plain/index.js";
import { type FieldMap, loadDataset, type Selection, selectItems } from "./dataset.js";
import { estimateCost, type PlannedJudgement, type PlannedRun, type Pricing } from "./estimate.js";
import { firstPhaseRuns, matchedK, samplingRuns, TEAM_RUN, type TeamShape } from "./plan.js";
import { createProgress, type ProgressStream } from "./progress.js";
import { buildReport, type EvalReport } from "./report.js";
import { openResults, RESULTS_VERSION, type ResultsHeader } from "./results-file.js";
import { pendingJudgements, pendingRuns, runEvalPhases } from "./run-eval.js";
import { createScorer, type ScorerName } from "./scorers.js";
import { createRunQuestion } from "./team-runner.js";

/** The options of `coord eval` after parsing. */
export interface EvaluateOptions {
  /** The data set's path, relative to `cwd`. */
  dataset: string;
  /** `--config`: the team. */
  config: string;
  fields: FieldMap;
  selection: Selection;
  scorer: ScorerName;
  pattern?: string | undefined;
  judgeConfig?: string | undefined;
  baselineAgent?: string | undefined;
  withQuick: boolean;
  scK?: number | undefined;
  concurrency: number;
  /** `--out`: the eval directory; default `<log root>/eval/<data set>-<config>`. */
  out?: string | undefined;
  /** False for `--no-logs`. */
  logs: boolean;
  /** `--yes`: no confirmation. */
  yes: boolean;
}

/** The outside world of an eval. */
export interface EvaluateIO {
  stderr: ProgressStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  argv: readonly string[];
  version: string;
  /** Ctrl+C. */
  signal: AbortSignal;
  /** Asks a yes/no question on the terminal; undefined when there is none (stdin not a TTY). */
  confirm: ((question: string) => Promise<boolean>) | undefined;
  /** Epoch ms. */
  now: () => number;
  /** Waits (the progress heartbeat); default the system clock's. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** How an eval ended. */
export type EvaluateResult =
  | { kind: "report"; report: EvalReport }
  | { kind: "interrupted"; resultsFile: string }
  | { kind: "declined" };

/**
 * Runs an eval (or resumes one) and reports.
 * @throws ConfigError for bad options, configs, data lines, a results file of another eval, or
 *   no confirmation without a terminal.
 * @throws ExecutionError when five runs in a row failed.
 */
export async function evaluate(options: EvaluateOptions, io: EvaluateIO): Promise<EvaluateResult> {
  const prepared = await prepareRun({ config: options.config }, io);
  for (const warning of prepared.warnings) io.stderr.write(`coord: warning: ${warning}\n`);
  const team = teamShape(prepared, options);
  const scorer = createScorer({ name: options.scorer, pattern: options.pattern });
  if ((options.scorer === "judge") !== (options.judgeConfig !== undefined)) {
    throw new ConfigError(
      options.scorer === "judge"
        ? "--scorer judge needs --judge-config PATH: the config of the model that judges answers"
        : "--judge-config goes with --scorer judge",
    );
  }
  const judgePrepared =
    options.judgeConfig === undefined
      ? undefined
      : await prepareRun({ config: options.judgeConfig }, io);

  const datasetPath = resolve(io.cwd, options.dataset);
  const dataset = await loadDataset(datasetPath, options.fields);
  const items = selectItems(dataset.items, options.selection);
  for (const item of items) scorer.check(item, datasetPath);

  const evalDir = resolve(
    io.cwd,
    options.out ??
      join(
        defaultLogRoot(prepared.env, io.cwd),
        "eval",
        `${stem(datasetPath)}-${stem(prepared.configPath ?? options.config)}`,
      ),
  );
  const header: ResultsHeader = {
    type: "eval",
    v: RESULTS_VERSION,
    created: new Date(io.now()).toISOString(),
    dataset: datasetPath,
    dataset_sha256: dataset.sha256,
    config: prepared.configPath ?? options.config,
    config_sha256: configSha256(prepared.config),
    fields: {
      question: options.fields.question,
      answer: options.fields.answer,
      id: options.fields.id ?? null,
    },
  };
  const results = await openResults(join(evalDir, "results.jsonl"), header);

  const ids = items.map((item) => item.id);
  const knownK =
    options.scK ??
    (pendingRuns(
      items,
      firstPhaseRuns(team).filter((spec) => spec.key === TEAM_RUN),
      results,
    ).length === 0
      ? matchedK(results.runs.get(TEAM_RUN), ids)?.k
      : undefined);
  // Until the team's calls are measured, k is the calls a team run is expected to make.
  const plannedK =
    knownK ?? firstPhaseRuns(team).find((spec) => spec.key === TEAM_RUN)!.expectedCalls;
  const toRun = [
    ...pendingRuns(items, firstPhaseRuns(team), results),
    ...pendingRuns(items, samplingRuns(team, plannedK), results),
  ];
  const judgementsLeft =
    judgePrepared === undefined
      ? 0
      : toRun.length === 0
        ? // Every run is in: exactly the distinct answers not judged yet.
          pendingJudgements({ items, scorer, results, team, k: plannedK }).length
        : // Runs to come: at most one verdict per method and item, less those already given.
          Math.max(
            0,
            items.length * (team.agentIds.length + (team.withQuick ? 3 : 2)) -
              [...results.judges.values()].filter((record) => ids.includes(record.item)).length,
          );
  if (toRun.length > 0 || judgementsLeft > 0) {
    const planned: PlannedRun[] = toRun.map(({ item, spec }) => ({
      mode: spec.mode,
      agentIndexes: spec.agentIndexes,
      question: item.question,
    }));
    // One verdict per method's answer (fewer when answers repeat), spread over the items.
    const judgements: PlannedJudgement[] = Array.from({ length: judgementsLeft }, (_, index) => {
      const item = items[index % items.length]!;
      return { question: item.question, reference: scorer.reference(item) };
    });
    const pricing = await priceTable();
    const estimate = estimateCost({
      config: prepared.config,
      runs: planned,
      judgeConfig: judgePrepared?.config,
      judgements,
      pricing,
    });
    const done = items.length * (firstPhaseRuns(team).length + plannedK - 1) - toRun.length;
    io.stderr.write(
      `[eval] ${items.length} items × (team${team.withQuick ? ", team --quick" : ""}, ${team.agentIds.length} agents alone, self-consistency ×${plannedK}${knownK === undefined ? " (k estimated until the team's calls are known)" : ""})${done > 0 ? `; ${done} runs already in ${results.path}` : ""}\n`,
    );
    io.stderr.write(
      `[eval] estimate: ${formatCount(estimate.runs)} runs, ≈${formatCount(estimate.calls)} model calls, ≈${formatCount(estimate.inputTokens)} input + ${formatCount(estimate.outputTokens)} output tokens, ${estimate.costUsd === null ? `cost unknown (no price for ${estimate.unpriced.join(", ")})` : `≈${formatCost(estimate.costUsd)}`}${judgements.length > 0 ? ", judge included" : ""} — a rough guide (docs/eval.md "Cost")\n`,
    );
    if (!options.yes) {
      if (io.confirm === undefined)
        throw new ConfigError(
          "confirm the estimate above with --yes (stdin is not a terminal, so coord eval cannot ask)",
        );
      if (!(await io.confirm("Start the eval?"))) return { kind: "declined" };
    }
  }

  const runQuestion = createRunQuestion({
    prepared,
    evalDir,
    logs: options.logs,
    cwd: io.cwd,
    version: io.version,
    argv: io.argv,
    onLogError: (error) =>
      io.stderr.write(`coord: warning: cannot write a run log: ${error.message}\n`),
  });
  const judge = judgePrepared && {
    runQuestion: createRunQuestion({
      prepared: judgePrepared,
      evalDir,
      logs: options.logs,
      cwd: io.cwd,
      version: io.version,
      argv: io.argv,
    }),
    ...chooseMode(judgePrepared.config, {}),
  };
  const phases = await runEvalPhases({
    items,
    scorer,
    team,
    results,
    runQuestion,
    judge,
    scK: options.scK,
    concurrency: options.concurrency,
    signal: io.signal,
    progress: createProgress(io.stderr),
    now: io.now,
    sleep: io.sleep ?? ((ms, signal) => systemClock.sleep(ms, signal)),
  });
  if (phases.interrupted) return { kind: "interrupted", resultsFile: results.path };

  const report = buildReport({
    items,
    scorer,
    results,
    team: { ...team, baselineId: phases.baselineId },
    baselineSource: phases.baselineSource,
    k: phases.k,
    kTokens: phases.kTokens,
    kSource: phases.kSource,
    teamCallsPerItem: phases.teamCallsPerItem,
    dataset: {
      path: datasetPath,
      sha256: dataset.sha256,
      itemsTotal: dataset.items.length,
      selection: describeSelection(options.selection),
    },
    configPath: header.config,
    evalDir,
    resultsFile: results.path,
  });
  await writeFileAtomic(join(evalDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return { kind: "report", report };
}

/**
 * The team as the eval runs it: two or more agents in the config's coordination mode (voting or
 * decomposition), and the baseline agent.
 * @throws ConfigError for a one-agent config, an unknown --baseline-agent, or --with-quick on a
 *   decomposition team (as `coord --quick` refuses it).
 */
function teamShape(prepared: PreparedRun, options: EvaluateOptions): TeamShape {
  const { config } = prepared;
  const agentIds = config.agents.map((agent) => agent.id);
  const choice = chooseMode(config, {});
  if (choice.mode !== "voting" && choice.mode !== "decomposition")
    throw new ConfigError(
      `${options.config} has one agent: coord eval compares a team with its agents alone; give a config with two or more agents`,
    );
  if (options.withQuick && choice.mode === "decomposition")
    throw new ConfigError(
      `--with-quick does not go with coordination_mode decomposition (${options.config}), where each agent refines its own part: drop --with-quick`,
    );
  const baselineId = options.baselineAgent ?? agentIds[0]!;
  if (!agentIds.includes(baselineId))
    throw new ConfigError(
      `--baseline-agent ${baselineId}: no agent with that id; the config's agents are: ${agentIds.join(", ")}`,
    );
  return {
    mode: choice.mode,
    agentIds,
    baselineId,
    baselineFromFlag: options.baselineAgent !== undefined,
    withQuick: options.withQuick,
  };
}

/** The selection in words, for the report. */
export function describeSelection(selection: Selection): string {
  switch (selection.kind) {
    case "all":
      return "all items";
    case "limit":
      return `the first ${selection.limit}`;
    case "sample":
      return `a sample of ${selection.size}, seed ${selection.seed}`;
  }
}

/** SHA-256 of a config as JSON with every `api_key` left out (keys change; the team does not). */
export function configSha256(config: unknown): string {
  const json = JSON.stringify(config, (key, value: unknown) =>
    key === "api_key" ? undefined : value,
  );
  return createHash("sha256").update(json).digest("hex");
}

function stem(path: string): string {
  const name = path.startsWith("@examples/")
    ? path.slice("@examples/".length)
    : basename(path, extname(path));
  return name.replace(/[^\w.-]+/g, "_") || "eval";
}

/** The price table, loaded when an estimate is shown. */
async function priceTable(): Promise<Pricing> {
  const { costUsd, priceFor } = await import("../backends/pricing.js");
  return {
    costOf(agent, usage) {
      const price = priceFor(agent.backend);
      return price === undefined
        ? undefined
        : costUsd({ ...usage, reasoningTokens: 0, cachedInputTokens: 0 }, price);
    },
  };
}
