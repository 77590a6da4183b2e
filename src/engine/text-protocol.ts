/**
 * The text protocol (docs/real-models.md "The text protocol"): how a
 * reply with no workflow call is still heard. Real models often answer in plain text ("Sure! The
 * answer is 18.") or call a tool that does not exist (`final_answer`); after at most one refusal
 * (at once in quick and single-agent modes) such a reply counts as the agent's workflow call:
 *
 * - a line `VOTE: agent2` (also `My vote: agent2`, `I vote for agent2`, any case, Markdown
 *   emphasis allowed), when the vote tool is offered and names that agent → a vote, the rest of
 *   the text its reason;
 * - any other non-empty text, when `new_answer` is offered → a new answer with that text.
 *
 * The text of an unknown tool call is its first string argument named `content`, `answer`,
 * `text`, `final_answer`, `response` or `result`.
 */
import type { ToolCall, ToolSpec } from "../backends/index.js";
import { NEW_ANSWER, VOTE, type WorkflowCall } from "./workflow-tools.js";

/** A workflow call heard in text. */
export type TextCall = Exclude<WorkflowCall, { kind: "invalid" }>;

/**
 * A vote line. It reads a model's reply, so it stays linear in the reply's length: no quantifier
 * crosses a line, and no two adjacent ones can match the same spaces.
 */
const VOTE_LINE =
  /^[ \t>*_#-]*(?:i[ \t]+vote[ \t]+for|my[ \t]+vote(?:[ \t]+is)?|vote(?:[ \t]+for)?)(?:[ \t]*[:=-])?[ \t*_`"']*(agent[ \t]?\d+)\b/im;

/** The argument names whose string value is an unknown tool call's text, in order. */
const TEXT_ARGUMENTS = ["content", "answer", "text", "final_answer", "response", "result"];

/**
 * The workflow call a text reply stands for, given the tools offered now; undefined when it
 * stands for none (empty text, or neither tool is offered).
 * @param text the reply's text, trimmed.
 * @param offered the workflow tools offered in this request.
 * @param id the synthetic tool-call id the call carries in the events (`text-…`).
 */
export function defaultTextCall(
  text: string,
  offered: readonly ToolSpec[],
  id: string,
): TextCall | undefined {
  if (text === "") return undefined;
  const vote = offered.find((tool) => tool.name === VOTE);
  const match = vote ? VOTE_LINE.exec(text) : null;
  if (vote && match) {
    const agentId = match[1]!.replace(/\s+/g, "").toLowerCase();
    const allowed = allowedIds(vote);
    if (allowed === undefined || allowed.includes(agentId)) {
      const reason = text.replace(match[0], "").trim();
      const call = { toolCallId: id, toolName: VOTE, input: { agent_id: agentId, reason } };
      return { kind: "vote", call, agentId, reason };
    }
  }
  if (!offered.some((tool) => tool.name === NEW_ANSWER)) return undefined;
  const call = { toolCallId: id, toolName: NEW_ANSWER, input: { content: text } };
  return { kind: "new_answer", call, content: text };
}

/** The anonymous ids a vote tool's schema allows, if it lists them. */
function allowedIds(vote: ToolSpec): string[] | undefined {
  const schema = vote.inputSchema as { properties?: { agent_id?: { enum?: unknown } } };
  const ids = schema.properties?.agent_id?.enum;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : undefined;
}

/** The text an unknown tool call carries (see the module comment), trimmed; "" when none. */
export function textOfUnknownCall(call: ToolCall): string {
  const input = call.input;
  if (typeof input === "string") return input.trim();
  if (input === null || typeof input !== "object") return "";
  const fields = input as Record<string, unknown>;
  for (const key of TEXT_ARGUMENTS) {
    const value = fields[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return "";
}

/**
 * One line summing up what a model did in its refused attempts, e.g. `called the unknown tool
 * final_answer 3 times` or `answered in plain text twice, then sent an empty reply`.
 * @param failures one phrase per refused attempt, in order.
 */
export function describeFailures(failures: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const failure of failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  const parts = [...counts].map(([what, n]) =>
    n === 1 ? what : n === 2 ? `${what} twice` : `${what} ${n} times`,
  );
  return parts.length === 0 ? "no valid workflow call" : parts.join(", then ");
}
