/**
 * A team behind the fake OpenAI server whose answers name the question they were asked, so
 * server tests can check that each response answers its own request: every agent answers
 * `Answer to: <question>` and the presenter writes `Final answer to: <question>`.
 */
import {
  coordinationHandler,
  type FakeHandler,
  type RequestSummary,
} from "./fake-openai-server.js";

/** Usage the fake provider reports for every model call (tokens). */
export const ECHO_USAGE = {
  inputTokens: 100,
  outputTokens: 20,
  reasoningTokens: 3,
  cachedInputTokens: 10,
};

/** The question inside a coordination prompt (`<ORIGINAL MESSAGE>…</ORIGINAL MESSAGE>`). */
export function questionOf(summary: RequestSummary): string {
  return /<ORIGINAL MESSAGE>\n([\s\S]*?)\n<\/ORIGINAL MESSAGE>/.exec(summary.text)?.[1] ?? "?";
}

/**
 * The fake-server handler of the echo team. Answers carry the agent's temperature so no two
 * agents give the same answer (an identical new_answer is refused).
 */
export function echoHandler(): FakeHandler {
  return (request) =>
    coordinationHandler({
      answer: (summary) =>
        `Answer to: ${questionOf(summary)} (temperature ${String(request.body.temperature)})`,
      finalAnswer: (summary) => `Final answer to: ${questionOf(summary)}`,
      usage: ECHO_USAGE,
    })(request);
}

/** A config of `agents` chatcompletion agents on the fake server at `url` (…/v1). */
export function echoTeamConfig(url: string, agents = 2): string {
  const lines = ["agents:"];
  for (let index = 0; index < agents; index++) {
    lines.push(
      `  - id: echo_${index + 1}`,
      `    backend: { type: chatcompletion, model: fake-model, base_url: "${url}", temperature: 0.${index + 1} }`,
    );
  }
  return `${lines.join("\n")}\nui: { display_type: simple }\n`;
}
