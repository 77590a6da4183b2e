/**
 * The misbehaving-model fake (test/support/fake-openai/misbehaving-handler.ts) through the real
 * `openai` client over a real socket: each model name gets its behaviour on the Chat Completions
 * wire (streamed and not), errors carry the real providers' bodies, rates are deterministic, and
 * the counters agree with the recorded requests.
 */
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import {
  answerText,
  contextLengthMessage,
  MARKDOWN_PLAN,
  misbehavingHandler,
  parseModelName,
  statsOf,
  type MisbehavingHandler,
} from "./support/fake-openai/misbehaving-handler.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

const tool = (name: string, properties: Record<string, unknown>): OpenAI.ChatCompletionTool => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, required: Object.keys(properties) } },
});
const NEW_ANSWER = tool("new_answer", { content: { type: "string" } });
const VOTE = tool("vote", { agent_id: { type: "string" }, reason: { type: "string" } });
const SUBMIT_PLAN = tool("submit_plan", { tasks: { type: "array" } });

const QUESTION = "<ORIGINAL MESSAGE>\nHow much does Janet make?\n</ORIGINAL MESSAGE>";
const NO_ANSWERS = `${QUESTION}\n\n<CURRENT ANSWERS>\n(no answers yet)\n</CURRENT ANSWERS>`;
const withAnswers = (...answers: string[]) =>
  `${QUESTION}\n\n<CURRENT ANSWERS>\n${answers.map((text, index) => `<agent${index + 1}>\n${text}\n</agent${index + 1}>`).join("\n")}\n</CURRENT ANSWERS>`;

let server: FakeOpenAIServer | undefined;
let fake: MisbehavingHandler;
let client: OpenAI;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<void> {
  fake = misbehavingHandler();
  server = await startFakeOpenAIServer(fake.handle);
  client = new OpenAI({ baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });
}

/** One non-streamed call; returns the assistant message. */
async function ask(
  model: string,
  prompt: string,
  tools: OpenAI.ChatCompletionTool[],
  toolChoice: "auto" | "required" = "auto",
): Promise<OpenAI.ChatCompletionMessage> {
  const completion = await client.chat.completions.create({
    model,
    messages: [
      { role: "system", content: "You are agent1 of a team." },
      { role: "user", content: prompt },
    ],
    ...(tools.length > 0 ? { tools, tool_choice: toolChoice } : {}),
  });
  return completion.choices[0]!.message;
}

/** The error a call failed with (the openai client's APIError: status, type, code, message). */
async function failure(call: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Error) return error as Error & Record<string, unknown>;
  }
  throw new Error("the call did not fail");
}

const calls = (message: OpenAI.ChatCompletionMessage) =>
  (message.tool_calls ?? []).map((call) =>
    call.type === "function" ? [call.function.name, call.function.arguments] : [call.type, ""],
  );

describe("the misbehaving-model fake over the openai client", () => {
  test("model names: tag, behaviour, window and rate", () => {
    expect(parseModelName("a/plain-text")).toEqual({
      behaviour: "plain-text",
      rate: 100,
      contextTokens: 2000,
      tag: "a",
    });
    expect(parseModelName("b/unknown-tool@30")).toMatchObject({
      behaviour: "unknown-tool",
      rate: 30,
    });
    expect(parseModelName("small-context-2500")).toMatchObject({
      behaviour: "small-context",
      contextTokens: 2500,
      tag: "small-context-2500",
    });
    expect(parseModelName("gpt-4.1-mini").behaviour).toBe("sound");
  });

  test("sound: answers, votes once answers exist, presents in text", async () => {
    await start();
    expect(calls(await ask("a/sound", NO_ANSWERS, [NEW_ANSWER]))).toEqual([
      ["new_answer", JSON.stringify({ content: answerText("a") })],
    ]);
    const vote = calls(await ask("a/sound", withAnswers("x", "y"), [NEW_ANSWER, VOTE]));
    expect(vote[0]?.[0]).toBe("vote");
    expect(JSON.parse(vote[0]![1]!)).toMatchObject({ agent_id: "agent1" });
    expect((await ask("a/sound", "Present.", [])).content).toBe(`Final answer: ${answerText("a")}`);
  });

  test("plain-text, empty, unknown and other-mode tools, cut-off JSON, two answers: the reply as a broken model sends it", async () => {
    await start();
    const plain = await ask("a/plain-text", NO_ANSWERS, [NEW_ANSWER]);
    expect([plain.content, calls(plain)]).toEqual(["Sure! The answer is 18.", []]);
    const empty = await ask("a/empty", NO_ANSWERS, [NEW_ANSWER]);
    expect([empty.content ?? "", calls(empty)]).toEqual(["", []]);
    expect(calls(await ask("a/unknown-tool", NO_ANSWERS, [NEW_ANSWER]))).toEqual([
      ["final_answer", JSON.stringify({ answer: "The answer is 18." })],
    ]);
    expect(calls(await ask("a/other-mode-tool", NO_ANSWERS, [NEW_ANSWER]))[0]![0]).toBe(
      "submit_plan",
    );
    expect(calls(await ask("a/other-mode-tool", NO_ANSWERS, [SUBMIT_PLAN]))[0]![0]).toBe(
      "new_answer",
    );
    const [cut] = calls(await ask("a/cutoff-json", NO_ANSWERS, [NEW_ANSWER]));
    expect(cut).toEqual(["new_answer", '{"content": "The answer is 18']);
    expect(() => JSON.parse(cut![1]!) as unknown).toThrow(SyntaxError);
    expect(
      calls(await ask("a/two-answers", NO_ANSWERS, [NEW_ANSWER])).map(([name]) => name),
    ).toEqual(["new_answer", "new_answer"]);
  });

  test("resubmit, never-votes, copies-part: what each sends where a vote is expected", async () => {
    await start();
    const first = calls(await ask("a/resubmit", NO_ANSWERS, [NEW_ANSWER]));
    const again = calls(
      await ask("a/resubmit", withAnswers(answerText("a"), "other"), [NEW_ANSWER, VOTE]),
    );
    expect(again).toEqual(first);
    const one = calls(await ask("a/never-votes", withAnswers("x"), [NEW_ANSWER, VOTE]));
    const two = calls(await ask("a/never-votes", withAnswers("x"), [NEW_ANSWER, VOTE]));
    expect([one[0]![0], two[0]![0]]).toEqual(["new_answer", "new_answer"]);
    expect(one[0]![1]).not.toBe(two[0]![1]);
    const copied = calls(await ask("c/copies-part", withAnswers(answerText("a")), [NEW_ANSWER]));
    expect(copied).toEqual([["new_answer", JSON.stringify({ content: answerText("a") })]]);
  });

  test("no-required: vLLM's HTTP 400 for tool_choice required, sound with auto", async () => {
    await start();
    const refused = await failure(ask("a/no-required", NO_ANSWERS, [NEW_ANSWER], "required"));
    expect(refused).toMatchObject({ status: 400, type: "BadRequestError" });
    expect(refused.message).toContain("The tool_choice option required is not yet supported");
    expect(calls(await ask("a/no-required", NO_ANSWERS, [NEW_ANSWER], "auto"))[0]![0]).toBe(
      "new_answer",
    );
  });

  test("plan-text writes the plan as Markdown where submit_plan is offered", async () => {
    await start();
    const reply = await ask("a/plan-text", NO_ANSWERS, [SUBMIT_PLAN]);
    expect([reply.content, calls(reply)]).toEqual([MARKDOWN_PLAN, []]);
    expect(calls(await ask("a/sound", NO_ANSWERS, [SUBMIT_PLAN]))[0]![0]).toBe("submit_plan");
  });

  test("small-context-N: OpenAI's context_length_exceeded once the prompt passes N tokens", async () => {
    await start();
    expect(calls(await ask("a/small-context-400", NO_ANSWERS, [NEW_ANSWER]))[0]![0]).toBe(
      "new_answer",
    );
    const long = withAnswers("x".repeat(1000), "y".repeat(1000));
    const error = await failure(ask("a/small-context-400", long, [NEW_ANSWER, VOTE]));
    expect(error).toMatchObject({ status: 400, code: "context_length_exceeded" });
    expect(error.message).toMatch(
      /^400 This model's maximum context length is 400 tokens\. However, your messages resulted in \d+ tokens\./,
    );
    expect(contextLengthMessage(400, 700)).toContain("resulted in 700 tokens");
  });

  test("a rate misbehaves on about that share of replies, the same on every run; streamed too", async () => {
    const names = async () => {
      await start();
      const seen: string[] = [];
      for (let index = 0; index < 60; index++) {
        const stream = await client.chat.completions.create({
          model: "a/unknown-tool@30",
          messages: [{ role: "user", content: NO_ANSWERS }],
          tools: [NEW_ANSWER],
          tool_choice: "required",
          stream: true,
          stream_options: { include_usage: true },
        });
        let name = "";
        for await (const chunk of stream) {
          name += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.name ?? "";
        }
        seen.push(name);
      }
      await server!.close();
      server = undefined;
      return seen;
    };
    const first = await names();
    const bad = first.filter((name) => name === "final_answer").length;
    expect(bad).toBeGreaterThanOrEqual(9);
    expect(bad).toBeLessThanOrEqual(27);
    expect(first.filter((name) => name === "new_answer")).toHaveLength(60 - bad);
    expect(await names()).toEqual(first);
  });

  test("counters per model name agree with the recorded requests and GET /__requests", async () => {
    await start();
    await ask("a/sound", NO_ANSWERS, [NEW_ANSWER]);
    await ask("b/plain-text", NO_ANSWERS, [NEW_ANSWER]);
    await ask("b/plain-text", withAnswers("x"), [NEW_ANSWER, VOTE]);
    await ask("c/no-required", NO_ANSWERS, [NEW_ANSWER], "required").catch(() => undefined);
    const stats = fake.stats();
    expect(Object.keys(stats)).toEqual(["a/sound", "b/plain-text", "c/no-required"]);
    expect(stats["a/sound"]).toMatchObject({ requests: 1, misbehaved: 0, failed: 0 });
    expect(stats["b/plain-text"]).toMatchObject({ requests: 2, misbehaved: 2, failed: 0 });
    expect(stats["c/no-required"]).toMatchObject({ requests: 1, misbehaved: 1, failed: 1 });
    expect(fake.totals()).toMatchObject({ requests: 4, misbehaved: 3, failed: 1 });
    const recorded = (await (
      await fetch(`${server!.url.replace(/\/v1$/, "")}/__requests`)
    ).json()) as Parameters<typeof statsOf>[0];
    const fromLog = statsOf(recorded);
    for (const [model, entry] of Object.entries(stats)) {
      expect(fromLog[model]).toMatchObject({
        requests: entry.requests,
        promptTokens: entry.promptTokens,
      });
      expect(entry.promptTokens).toBeGreaterThan(20);
    }
  });
});
