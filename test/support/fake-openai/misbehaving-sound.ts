/**
 * The sound replies of the misbehaving-model fake ({@link soundReply}): `coordinationHandler`'s
 * answer-vote-present behaviour, plus planning (a valid two-task `submit_plan`) and plan execution
 * (every task of the chunk set in progress, completed and verified, then the answer).
 */
import { coordinationHandler } from "./coordination-handler.js";
import type { FakeReply, FakeRequest } from "./fake-reply.js";
import type { RequestSummary } from "./summarize-request.js";
import { isRecord } from "./wire-helpers.js";

/** Prompt phrases that mean "no answers yet" (as `coordinationHandler` reads them). */
const NO_ANSWERS_PATTERN = /no answers (?:available |provided |submitted )?yet|\(no answers/i;

/** The sound plan of the agent tagged `tag`: two tasks in chunk 1, T2 after T1. */
export const soundPlan = (tag: string) => ({
  tasks: [
    {
      id: "T1",
      description: "Count the eggs left to sell: 16 - 3 - 4.",
      depends_on: [],
      priority: "high",
      verification: "Recount: 3 + 4 + 9 = 16.",
      chunk: 1,
    },
    {
      id: "T2",
      description: "Compute the day's income at $2 per egg.",
      depends_on: ["T1"],
      priority: "high",
      verification: "Multiply again: 9 x 2 = 18.",
      chunk: 1,
    },
  ],
  requirements: "The day's income in dollars.",
  design_decisions: `Plain arithmetic (planned by ${tag}).`,
});

/**
 * Whether the request shows answers: `<agentN>` blocks in the prompt, or the vote tool offered
 * with ids to vote for and no "no answers yet".
 */
export function answersVisible(summary: RequestSummary): boolean {
  if (visibleAnswers(summary).length > 0) return true;
  const voteTool = summary.tools.find((entry) => entry.name === "vote");
  if (voteTool === undefined) return false;
  const properties = isRecord(voteTool.parameters.properties) ? voteTool.parameters.properties : {};
  const agentId = isRecord(properties.agent_id) ? properties.agent_id : {};
  const allowed = Array.isArray(agentId.enum) ? agentId.enum : undefined;
  return (allowed === undefined || allowed.length > 0) && !NO_ANSWERS_PATTERN.test(summary.text);
}

/** The answers shown in `<agentN>` blocks of the prompt, in order. */
export function visibleAnswers(summary: RequestSummary): string[] {
  return [...summary.text.matchAll(/<(agent\d+)>\n([\s\S]*?)\n<\/\1>/g)].map((match) => match[2]!);
}

/** Task ids of the chunk being executed, from the system prompt's task lines. */
function chunkTaskIds(summary: RequestSummary): string[] {
  return [...summary.system.matchAll(/^- \[[ ~xv]\] (\S+) \(chunk /gm)].map((match) => match[1]!);
}

/**
 * A sound reply: planning calls (`assign_*`), votes, answers, stops and presentation as
 * `coordinationHandler` gives them (answering `answer`, presenting "Final answer: …"); with
 * `submit_plan` offered and no plans to vote on, {@link soundPlan}; with the plan tools offered,
 * every unverified task of the chunk taken through in_progress → completed → verified in one
 * reply, then `answer`.
 *
 * @param request the request as received.
 * @param summary the request, summarized.
 * @param answer the content of the agent's answers.
 * @param tag the agent's tag (its plan's design decisions name it, so plans differ).
 */
export function soundReply(
  request: FakeRequest,
  summary: RequestSummary,
  answer: string,
  tag: string,
): FakeReply | Promise<FakeReply> {
  const offers = (name: string) => summary.toolNames.includes(name);
  const delegate = () =>
    coordinationHandler({
      answer,
      finalAnswer: `Final answer: ${answer}`,
      stopSummary: "My part is done.",
    })(request);
  const planning = offers("submit_plan") || offers("update_task_status");
  if (planning && offers("vote") && answersVisible(summary)) {
    return delegate();
  }
  if (offers("submit_plan")) {
    return { toolCalls: [{ name: "submit_plan", arguments: soundPlan(tag) }] };
  }
  if (offers("update_task_status")) {
    const open = chunkTaskIds(summary).filter((id) => !summary.text.includes(`${id} is verified.`));
    if (open.length === 0) {
      return { toolCalls: [{ name: "new_answer", arguments: { content: answer } }] };
    }
    return {
      toolCalls: open.flatMap((id) =>
        ["in_progress", "completed", "verified"].map((status) => ({
          name: "update_task_status",
          arguments: { task_id: id, status, notes: `${id} ${status}: checked.` },
        })),
      ),
    };
  }
  return delegate();
}
