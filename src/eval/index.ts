/**
 * The eval's public API (docs/eval.md): `coord eval` runs a team, its agents alone and
 * self-consistency over a JSONL data set and reports accuracy with confidence intervals,
 * McNemar's test against the team, and the spend per item.
 */
export {
  describeSelection,
  evaluate,
  type EvaluateIO,
  type EvaluateOptions,
  type EvaluateResult,
} from "./evaluate.js";
export {
  type Dataset,
  type FieldMap,
  loadDataset,
  type Selection,
  selectItems,
} from "./dataset.js";
export { type EvalReport, EVAL_REPORT_VERSION, type MethodReport } from "./report.js";
export { renderEvalReport } from "./render-report.js";
export {
  createScorer,
  type EvalItem,
  type Scorer,
  SCORER_NAMES,
  type ScorerName,
} from "./scorers.js";
export { mcnemarTest, wilsonInterval } from "./stats.js";
