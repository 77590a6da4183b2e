/**
 * The Vercel AI SDK against `coord serve` from the built CLI, with a team on a fake provider:
 * `streamText` through `@ai-sdk/openai`'s `.chat(model)` and
 * through `@ai-sdk/openai-compatible`, `generateText`. What reached coord is counted from its
 * access log, what the team ran from the provider's recorded model calls.
 *
 * The AI SDK retries 408, 409, 429 and every 5xx twice (2 s, then 4 s), by status alone
 * (`@ai-sdk/provider`'s APICallError): it does not read `x-should-retry`. A streamed run that
 * fails ends its stream with an error event, which it does not retry; a 5xx it retries is answered
 * from coord's failure memory without running the team again; the spec's 501 runs no team.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, RetryError, streamText, type LanguageModel } from "ai";
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

const openaiChat = (baseURL: string): LanguageModel =>
  createOpenAI({ baseURL, apiKey: "unused" }).chat("coord");
const compatible = (baseURL: string): LanguageModel =>
  createOpenAICompatible({ name: "coord", baseURL, includeUsage: true }).chatModel("coord");

/** streamText reports errors on the console by default; these tests read them from the stream. */
const quiet = () => undefined;

/** Reads a streamText result to its end; the error it reported, if any. */
async function drain(result: ReturnType<typeof streamText>): Promise<unknown> {
  let caught: unknown;
  for await (const part of result.fullStream) if (part.type === "error") caught = part.error;
  return caught;
}

/** The status of the API error behind `error` (a RetryError wraps the last attempt's). */
function statusOf(error: unknown): number | undefined {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  return APICallError.isInstance(last) ? last.statusCode : undefined;
}

describe("streamText against coord serve --stream", () => {
  test("@ai-sdk/openai-compatible: the trace as reasoning while the team works, the answer in pieces, usage; one request", async () => {
    const held = holdPresentation(longAnswerHandler());
    team = await serveFakeTeam(held.handler, { args: ["--stream"] });
    const result = streamText({
      model: compatible(team.baseURL),
      prompt: QUESTION,
      onError: quiet,
    });
    let reasoning = "";
    let reasoningParts = 0;
    let beforeTheEnd = 0;
    const text: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "error") throw part.error as Error;
      if (part.type === "text-delta") text.push(part.text);
      if (part.type === "reasoning-delta") {
        reasoning += part.text;
        if (++reasoningParts === 2) {
          // The presenter's model call is still held: the run cannot have ended yet.
          beforeTheEnd = reasoningParts;
          held.release();
        }
      }
    }
    expect(beforeTheEnd).toBe(2);
    expect(reasoning.split("\n")[0]).toBe(`[system] Question: ${QUESTION}`);
    expect(text.length).toBeGreaterThan(1);
    expect(text.join("")).toBe(longAnswer(QUESTION));
    const usage = await result.usage;
    // Two answers, two votes, one presentation: five model calls.
    expect(usage.inputTokens).toBe(5 * ECHO_USAGE.inputTokens);
    expect(usage.outputTokens).toBe(5 * ECHO_USAGE.outputTokens);
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
    expect(team.provider.requests).toHaveLength(5);
  });

  test("@ai-sdk/openai .chat(): the answer in pieces and usage; one request (it shows no trace)", async () => {
    // This provider reads ahead to the first content chunk before streamText yields anything
    // (to raise an early error frame as an API error), and ignores reasoning_content: its parts
    // start with the answer, once the run ended.
    team = await serveFakeTeam(longAnswerHandler(), { args: ["--stream"] });
    const result = streamText({
      model: openaiChat(team.baseURL),
      prompt: QUESTION,
      onError: quiet,
    });
    const text: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "error") throw part.error as Error;
      if (part.type === "text-delta") text.push(part.text);
    }
    expect(text.length).toBeGreaterThan(1);
    expect(text.join("")).toBe(longAnswer(QUESTION));
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(5 * ECHO_USAGE.inputTokens);
    expect(usage.outputTokens).toBe(5 * ECHO_USAGE.outputTokens);
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
  });

  test("@ai-sdk/openai-compatible, a failing team: the stream's error part, one request", async () => {
    team = await serveFakeTeam(failingProvider, { args: ["--stream"] });
    const result = streamText({
      model: compatible(team.baseURL),
      prompt: QUESTION,
      onError: quiet,
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain("model fake-model does not exist");
    expect(JSON.stringify(errors[0])).not.toContain("127.0.0.1");
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
  });

  test("@ai-sdk/openai .chat(), a failing team: it retries the error event twice; the team runs once", async () => {
    team = await serveFakeTeam(failingProvider, { args: ["--stream"] });
    // One failed run of another question: how many model calls a run of this team makes.
    await drain(
      streamText({
        model: openaiChat(team.baseURL),
        prompt: "2 + 2?",
        maxRetries: 0,
        onError: quiet,
      }),
    );
    const perRun = team.provider.requests.length;
    expect(perRun).toBeGreaterThan(0);
    const error = await drain(
      streamText({ model: openaiChat(team.baseURL), prompt: QUESTION, onError: quiet }),
    );
    expect(statusOf(error)).toBe(500);
    expect(String((error as RetryError).lastError)).toContain("model fake-model does not exist");
    await team.waitForPosts(4);
    expect(team.posts().filter((line) => line.includes(": no run)"))).toHaveLength(2);
    expect(team.provider.requests).toHaveLength(2 * perRun);
  });
});

describe("the AI SDK against coord serve without --stream", () => {
  test("streamText gets the spec's 501; maxRetries 0 sends it once, and a retry runs no team", async () => {
    team = await serveFakeTeam(longAnswerHandler());
    const errorOf = (maxRetries: number) =>
      drain(
        streamText({
          model: openaiChat(team!.baseURL),
          prompt: QUESTION,
          maxRetries,
          onError: quiet,
        }),
      );
    expect(statusOf(await errorOf(0))).toBe(501);
    await team.waitForPosts(1);
    expect(team.posts()).toHaveLength(1);
    expect(statusOf(await errorOf(1))).toBe(501);
    await team.waitForPosts(3);
    expect(team.posts().filter((line) => line.includes(" 501 "))).toHaveLength(3);
    expect(team.provider.requests).toHaveLength(0);
  });

  test("generateText with a failing team: its two retries get the same 500 at once, the team runs once", async () => {
    team = await serveFakeTeam(failingProvider);
    const model = compatible(team.baseURL);
    // One failed run of another question: how many model calls a run of this team makes.
    await generateText({ model, prompt: "What is 2 + 2?", maxRetries: 0 }).catch(() => undefined);
    const perRun = team.provider.requests.length;
    expect(perRun).toBeGreaterThan(0);
    // The AI SDK's defaults: two retries.
    const error = await generateText({ model, prompt: QUESTION }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(RetryError.isInstance(error)).toBe(true);
    expect(statusOf(error)).toBe(500);
    const last = (error as RetryError).lastError as APICallError;
    expect(last.message).toContain("model fake-model does not exist");
    expect(last.message).toContain("coord does not run the team again");
    await team.waitForPosts(4);
    const posts = team.posts();
    expect(posts).toHaveLength(4);
    expect(posts.filter((line) => line.includes(": no run)"))).toHaveLength(2);
    expect(team.provider.requests).toHaveLength(2 * perRun);
  });
});

describe("the AI SDK's other calls", () => {
  test("temperature, maxOutputTokens and stopSequences reach every model call of the team", async () => {
    team = await serveFakeTeam(longAnswerHandler());
    const result = await generateText({
      model: compatible(team.baseURL),
      prompt: QUESTION,
      temperature: 0.7,
      maxOutputTokens: 321,
      stopSequences: ["<END>"],
    });
    expect(result.text).toBe(longAnswer(QUESTION));
    expect(team.provider.requests).toHaveLength(5);
    for (const request of team.provider.requests) {
      expect(request.body).toMatchObject({ temperature: 0.7, max_tokens: 321, stop: ["<END>"] });
    }
  });

  test("@ai-sdk/openai's default model calls /v1/responses: a 404 saying what coord serves, sent once", async () => {
    team = await serveFakeTeam(longAnswerHandler());
    const error = await generateText({
      model: createOpenAI({ baseURL: team.baseURL, apiKey: "unused" })("coord"),
      prompt: QUESTION,
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(statusOf(error)).toBe(404);
    expect((error as APICallError).message).toContain("POST /v1/chat/completions");
    await team.serve.waitFor(/POST \/v1\/responses 404 /);
    expect(team.serve.stderr().match(/POST \/v1\/responses 404 /g)).toHaveLength(1);
    expect(team.provider.requests).toHaveLength(0);
  });
});
