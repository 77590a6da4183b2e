/**
 * A plan written as text (docs/planning.md "A plan written as text"): when a
 * planning agent's model writes its plan in prose or Markdown instead of calling `submit_plan`,
 * its list items become the tasks, in order (`T1`, `T2`, …; each depends on none, priority
 * medium, spread evenly over `--plan-chunks` when set); without a list the whole text is one
 * task. The text itself is kept as the plan's requirements. The result is checked like any
 * `submit_plan` call.
 */
import type { ToolSpec } from "../../backends/index.js";
import { defaultTextCall, type TextCall } from "../text-protocol.js";
import { SUBMIT_PLAN, VOTE } from "../workflow-tools.js";

const LIST_ITEM = /^\s{0,6}(?:[-*+•]|\d{1,3}[.)]|(?:step|task)\s*\d{1,3}[:.)])\s+(.+)$/i;

/** Most characters a task's description keeps. */
const MAX_DESCRIPTION = 2000;

/**
 * The `submit_plan` arguments a text plan stands for (see the module comment).
 * @param chunks `--plan-chunks`, when set.
 */
export function planFromText(text: string, chunks: number | undefined): Record<string, unknown> {
  const items = text
    .split("\n")
    .map((line) => LIST_ITEM.exec(line)?.[1]?.trim())
    .filter((item): item is string => item !== undefined && item !== "");
  const descriptions = items.length > 0 ? items : [text.trim()];
  const count = descriptions.length;
  return {
    tasks: descriptions.map((description, index) => ({
      id: `T${index + 1}`,
      description: description.slice(0, MAX_DESCRIPTION),
      depends_on: [],
      priority: "medium",
      verification: "Check that the step's result is there and does what it says.",
      chunk: chunks === undefined ? 1 : Math.min(chunks, Math.floor((index * chunks) / count) + 1),
    })),
    requirements: text.trim(),
    design_decisions: "The plan was written as text; coord read its list items as the tasks.",
  };
}

/**
 * Planning mode's reading of a text reply: a vote line is a vote (the text protocol), any other
 * text a plan.
 */
export function planningTextCall(
  text: string,
  offered: readonly ToolSpec[],
  id: string,
  chunks: number | undefined,
): TextCall | undefined {
  if (text === "") return undefined;
  if (offered.some((tool) => tool.name === VOTE)) {
    const vote = defaultTextCall(
      text,
      offered.filter((tool) => tool.name === VOTE),
      id,
    );
    if (vote !== undefined) return vote;
  }
  if (!offered.some((tool) => tool.name === SUBMIT_PLAN)) return undefined;
  const input = planFromText(text, chunks);
  return { kind: "plan", call: { toolCallId: id, toolName: SUBMIT_PLAN, input }, input };
}
