/**
 * LangChain JS (`@langchain/openai`'s ChatOpenAI) against `coord serve` from the built CLI, with a
 * team on a fake provider. What reached coord is counted from
 * its access log, what the team ran from the provider's recorded model calls.
 *
 * LangChain retries every error but 400–407, 409, 413 (and aborts, `insufficient_quota`, some
 * 429s) up to 6 times, by status alone: it does not read `x-should-retry` (`@langchain/core`
 * `utils/async_caller`). So: with `--stream`, a streamed run that fails ends its stream with an
 * error, which LangChain raises without retrying; a 5xx it does retry is answered from coord's
 * failure memory, without running the team again; the spec's 501 costs no run either.
 */
import { ChatOpenAI } from "@langchain/openai";
import type { AIMessageChunk } from "@langchain/core/messages";
import { afterEach, describe, expect, test } from "vitest";
import { ECHO_USAGE } from "./support/echo-team.js";
import {
  failingProvider,
  holdPresentation,
  longAnswer,
  longAnswerHandler,
  serveFakeTeam,
  type ServedTeamProcess,
} from "./support/serve-team.js";

let team: ServedTeamProcess | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const QUESTION = "How many legs has a spider?";
const chatModel = (baseURL: string, maxRetries?: number) =>
  new ChatOpenAI({
    configuration: { baseURL },
    apiKey: "unused",
    model: "coord",
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });

/** The error `promise` rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & { status?: number }> {
  return promise.then(
    () => {
      throw new Error("expected an error");
    },
    (error: unknown) => error as Error & { status?: number },
  );
}

describe("ChatOpenAI against coord serve --stream", () => {
  test(".stream(): chunks while the team works, the answer in pieces, usage_metadata; one request", async () => {
    const held = holdPresentation(longAnswerHandler());
    team = await serveFakeTeam(held.handler, { args: ["--stream"] });
    const chunks: AIMessageChunk[] = [];
    let beforeTheEnd = 0;
    for await (const chunk of await chatModel(team.baseURL).stream(QUESTION)) {
      chunks.push(chunk);
      if (chunks.length === 2) {
        // The presenter's model call is still held: the run cannot have ended yet.
        beforeTheEnd = chunks.length;
        held.release();
      }
    }
    expect(beforeTheEnd).toBe(2);
    // ChatOpenAI's chunks carry text content as strings.
    const content = chunks.map((chunk) => chunk.text).filter((piece) => piece !== "");
    expect(content.length).toBeGreaterThan(1);
    expect(content.join("")).toBe(longAnswer(QUESTION));
    const reasoning = chunks
      .map((chunk) => chunk.additional_kwargs.reasoning_content)
      .filter((piece): piece is string => typeof piece === "string")
      .join("");
    expect(reasoning.split("\n")[0]).toBe(`[system] Question: ${QUESTION}`);
    const usage = chunks.find((chunk) => chunk.usage_metadata !== undefined)?.usage_metadata;
    // Two answers, two votes, one presentation: five model calls.
    expect(usage).toMatchObject({
      input_tokens: 5 * ECHO_USAGE.inputTokens,
      output_tokens: 5 * ECHO_USAGE.outputTokens,
    });
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
    expect(team.posts()[0]).toContain(" 200 ");
    expect(team.provider.requests).toHaveLength(5);
  });

  test("a failing team: the stream ends with the error LangChain raises; one request", async () => {
    team = await serveFakeTeam(failingProvider, { args: ["--stream"] });
    const error = await rejection(
      (async () => {
        for await (const chunk of await chatModel(team.baseURL).stream(QUESTION)) void chunk;
      })(),
    );
    expect(error.message).toContain("model fake-model does not exist");
    expect(error.message).not.toContain("127.0.0.1");
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
  });
});

describe("ChatOpenAI against coord serve without --stream", () => {
  test(".stream() gets the spec's 501; maxRetries 0 sends it once, and a retry runs no team", async () => {
    team = await serveFakeTeam(longAnswerHandler());
    const once = await rejection(chatModel(team.baseURL, 0).stream(QUESTION));
    expect(once.status).toBe(501);
    expect(once.message).toContain("streaming is not supported");
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
    // LangChain retries a 501 (by status); each retry is another 501 at once, never a run.
    const retried = await rejection(chatModel(team.baseURL, 1).stream(QUESTION));
    expect(retried.status).toBe(501);
    await team.waitForPosts(3);
    expect(team.posts().filter((line) => line.includes(" 501 "))).toHaveLength(3);
    expect(team.provider.requests).toHaveLength(0);
  });

  test("a failing team retried by LangChain runs once: the retries get the same 500 at once", async () => {
    team = await serveFakeTeam(failingProvider);
    // One failed run of another question: how many model calls a run of this team makes.
    await rejection(chatModel(team.baseURL, 0).invoke("What is 2 + 2?"));
    const perRun = team.provider.requests.length;
    expect(perRun).toBeGreaterThan(0);
    // LangChain's default is 6 retries over 1–2 minutes; 2 keep the test short, the same path.
    const error = await rejection(chatModel(team.baseURL, 2).invoke(QUESTION));
    expect(error.status).toBe(500);
    expect(error.message).toContain("model fake-model does not exist");
    expect(error.message).toContain("coord does not run the team again");
    await team.waitForPosts(4);
    const posts = team.posts();
    expect(posts).toHaveLength(4);
    expect(posts.filter((line) => line.includes(": no run)"))).toHaveLength(2);
    expect(team.provider.requests).toHaveLength(2 * perRun);
  });
});

describe("ChatOpenAI's generation parameters", () => {
  test("temperature, maxTokens and stop reach every model call of the team", async () => {
    team = await serveFakeTeam(longAnswerHandler());
    const model = new ChatOpenAI({
      configuration: { baseURL: team.baseURL },
      apiKey: "unused",
      model: "coord",
      temperature: 0.7,
      maxTokens: 321,
      stop: ["<END>"],
    });
    const answer = await model.invoke(QUESTION);
    expect(answer.text).toBe(longAnswer(QUESTION));
    expect(team.provider.requests).toHaveLength(5);
    for (const request of team.provider.requests) {
      expect(request.body).toMatchObject({ temperature: 0.7, max_tokens: 321, stop: ["<END>"] });
    }
  });
});
