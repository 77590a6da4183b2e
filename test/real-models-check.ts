/**
 * The assertions every cell of the real-models matrix (docs/real-models.md) must pass; the matrix
 * files (test/real-models-*.test.ts) give the cells. For each cell, through the built CLI against
 * the misbehaving-model fake:
 *
 * - the run ends on its own (not killed by the test's safety net);
 * - it ends within its budget: the calls the fake counted are at most the cell's bound
 *   (`callBound`: default budget `maxCalls + agents − 1` per run);
 * - the run logs count every request the fake received (`metrics.json` `totals.model_calls`),
 *   and at least the ones it failed as failed;
 * - whenever coord accepted an answer (`answer` events in the run logs), it prints an answer on
 *   stdout (with the 18 every fake answer ends on) and exits 0; a run that never accepted one exits 2;
 * - when the fake played the behaviour, stderr names it (`DIAGNOSIS`), model names aside (they
 *   spell the behaviour);
 * - of two answers in one reply the last counts (no accepted answer says 17);
 * - no agent has more than 5 answers accepted in one run (the documented default answer cap);
 * - no stderr line appears more than 10 times (a loop's repeated trace lines are collapsed);
 * - when no request failed at the provider, stderr does not send the user to "the providers'
 *   messages".
 *
 * Every failed check is reported with the cell's exit code, calls, prompt tokens and last stderr
 * lines (`expect.soft`), so one run shows everything a cell gets wrong.
 */
import { expect } from "vitest";
import {
  baseBehaviour,
  cellName,
  describeResult,
  DIAGNOSIS,
  runCell,
  type Cell,
} from "./support/real-models-matrix.js";

/** Per-cell test timeout (ms): the CLI's safety net plus the fake's start and the log reading. */
export const CELL_TEST_TIMEOUT_MS = 60_000;

/**
 * Answers one agent may have accepted in a run by default, in every mode (docs/real-models.md:
 * `orchestrator.max_new_answers_per_agent`, default 5).
 */
const DEFAULT_ANSWER_CAP = 5;

/** Most times one stderr line may appear: a loop's repeated lines are collapsed with a count. */
const MAX_REPEATS = 10;

/** Runs one cell and checks it (see the module doc). */
export async function checkCell(cell: Cell): Promise<void> {
  const result = await runCell(cell, { timeoutMs: 45_000 });
  const account = `${cellName(cell)}: ${describeResult(result)}`;
  expect.soft(result.code, `ended on its own: ${account}`).not.toBeNull();
  expect.soft(result.calls, `calls within the bound: ${account}`).toBeLessThanOrEqual(result.bound);
  expect
    .soft(result.loggedCalls, `every request counted in metrics.json: ${account}`)
    .toBe(result.calls);
  expect
    .soft(result.loggedFailedCalls, `failed requests counted: ${account}`)
    .toBeGreaterThanOrEqual(result.failed);
  expect
    .soft(result.maxAnswersPerAgent, `the default answer cap holds: ${account}`)
    .toBeLessThanOrEqual(DEFAULT_ANSWER_CAP);
  expect
    .soft(result.wrongAnswers, `of two answers in one reply the last counts: ${account}`)
    .toBe(0);
  if (result.answers > 0) {
    expect.soft(result.code, `an accepted answer means exit 0: ${account}`).toBe(0);
    expect.soft(result.stdout, `the answer on stdout: ${account}`).toMatch(/18/);
  } else {
    expect.soft(result.code, `no answer accepted means exit 2: ${account}`).toBe(2);
  }
  const diagnosis = DIAGNOSIS[baseBehaviour(cell.behaviour)];
  if (diagnosis !== undefined && result.misbehaved > 0) {
    // The model names spell the behaviour ("a/empty", "c/small-context-150"): not a diagnosis.
    const named = ["a", "b", "c"].reduce(
      (text, id) => text.replaceAll(`${id}/${cell.behaviour}`, "<model>"),
      result.stderr,
    );
    expect.soft(named, `stderr names the behaviour: ${account}`).toMatch(diagnosis);
  }
  const counts = new Map<string, number>();
  for (const line of result.stderr.split("\n")) counts.set(line, (counts.get(line) ?? 0) + 1);
  const [line, most] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a), ["", 0]);
  expect
    .soft(most, `repeated trace lines collapsed (${JSON.stringify(line)}): ${account}`)
    .toBeLessThanOrEqual(MAX_REPEATS);
  if (result.failed === 0) {
    expect
      .soft(result.stderr, `no provider failed, so none is blamed: ${account}`)
      .not.toMatch(/providers' messages/);
  }
}
