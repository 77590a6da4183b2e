/**
 * The fake model of the whole-process bench figures: a well-behaved agent of a team that agrees.
 */
import {
  summarizeRequest,
  type FakeReply,
  type FakeRequest,
} from "../test/support/fake-openai-server.js";

/**
 * A model that agrees: it votes for agent1 whenever the vote tool offers an answer, else answers
 * with `new_answer`, else (the final presentation, no tools) writes the answer.
 */
export function agreeingModel(
  request: FakeRequest,
  answer: (request: FakeRequest) => string = () => "The answer is 4.",
): FakeReply {
  const summary = summarizeRequest(request);
  const vote = summary.tools.find((tool) => tool.name === "vote");
  const properties = vote?.parameters.properties as { agent_id?: { enum?: unknown[] } } | undefined;
  const candidates = properties?.agent_id?.enum ?? [];
  if (candidates.length > 0) {
    const agentId = candidates.includes("agent1") ? "agent1" : String(candidates[0]);
    return { toolCalls: [{ name: "vote", arguments: { agent_id: agentId, reason: "correct" } }] };
  }
  if (summary.toolNames.includes("new_answer")) {
    return { toolCalls: [{ name: "new_answer", arguments: { content: answer(request) } }] };
  }
  return { text: "The answer is 4." };
}
