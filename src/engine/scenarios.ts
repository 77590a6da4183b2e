/**
 * Named scripted scenarios of docs/coordination.md, shared by the engine tests and the benchmarks.
 * Each maps agent ids (config order) to the steps their backend plays.
 */
import type { ScriptedStep } from "../backends/index.js";

type Scripts = Record<string, ScriptedStep[]>;

/** Three agents answer, all vote for agent1, agent1 presents: the 7 model calls of step 5. */
export const allAgree: Scripts = {
  a: [{ answer: "4" }, { vote: "agent1", reason: "correct" }, { text: "The answer is 4." }],
  b: [{ answer: "Four" }, { vote: "agent1", reason: "same answer" }],
  c: [{ answer: "2+2=4" }, { vote: "agent1", reason: "clearest" }],
};

/**
 * `n` agents that answer once and all vote for agent1; agent1 presents. `delayMs` per call.
 * @param n team size (≥ 1).
 */
export function agreeingTeam(n: number, delayMs = 0): Scripts {
  const scripts: Scripts = {};
  for (let index = 0; index < n; index++) {
    const delay = delayMs > 0 ? { delay_ms: delayMs } : {};
    const steps: ScriptedStep[] = [
      { ...delay, answer: `Answer number ${index + 1}: 2+2=4 (variant ${index + 1}).` },
      { ...delay, vote: "agent1", reason: "correct and clear" },
    ];
    if (index === 0) steps.push({ ...delay, text: "2+2 = 4." });
    scripts[`agent_${index + 1}`] = steps;
  }
  return scripts;
}
