/**
 * The `openai` backend's pass-through of MassGen's hosted-tool and verbosity keys
 * (`enable_web_search`, `enable_code_interpreter`, `text.verbosity`), against the fake OpenAI
 * server's Responses stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { collectChunks, neverAborted, testRequest } from "../../test/support/backend-test-kit.js";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { createOpenAIBackend, responsesProviderOptions } from "./openai.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(replies: FakeReply[], extra: Record<string, unknown>) {
  server = await startFakeOpenAIServer(replies);
  const backend = createOpenAIBackend(
    { type: "openai", model: "gpt-5", base_url: server.url, ...extra } as never,
    { OPENAI_API_KEY: "sk-test" },
  );
  return { backend, fake: server };
}

describe("createOpenAIBackend hosted tools and verbosity", () => {
  it("offers web_search and streams the call and its sources as provider tool chunks", async () => {
    const { backend, fake } = await backendFor(
      [
        {
          providerToolCalls: [
            {
              name: "web_search",
              input: { query: "euro 2024 winner" },
              result: [{ url: "https://uefa.com/euro2024", title: "UEFA" }],
            },
          ],
          text: "Spain.",
        },
      ],
      { enable_web_search: true, text: { verbosity: "low" } },
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([]);
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
      toolCallId: "ws_fake_1",
      toolName: "web_search",
    });
    const result = chunks.find((chunk) => chunk.type === "provider-tool-result");
    expect(result).toMatchObject({ toolCallId: "ws_fake_1", isError: false });
    expect(JSON.stringify(result)).toContain("https://uefa.com/euro2024");
    const body = fake.requests[0]!.body;
    expect(body.tools).toEqual(expect.arrayContaining([{ type: "web_search" }]));
    expect(body.text).toMatchObject({ verbosity: "low" });
  });

  it("offers code_interpreter and streams its code and logs", async () => {
    const { backend, fake } = await backendFor(
      [
        {
          providerToolCalls: [
            { name: "code_execution", input: { code: "print(6*7)" }, result: { stdout: "42\n" } },
          ],
          text: "42",
        },
      ],
      { enable_code_interpreter: true },
    );
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [], toolChoice: "auto" }), { signal: neverAborted() }),
    );
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
      toolName: "code_interpreter",
      input: { code: "print(6*7)", containerId: "cntr_fake" },
    });
    expect(JSON.stringify(chunks.find((chunk) => chunk.type === "provider-tool-result"))).toContain(
      "42\\n",
    );
    expect(fake.requests[0]!.body.tools).toEqual([
      { type: "code_interpreter", container: { type: "auto" } },
    ]);
  });

  it("maps text.verbosity (and a bare verbosity) to textVerbosity", () => {
    expect(
      responsesProviderOptions({
        type: "openai",
        model: "gpt-4.1",
        text: { verbosity: "high" },
      } as never),
    ).toEqual({ openai: { textVerbosity: "high" } });
    expect(
      responsesProviderOptions({ type: "openai", model: "gpt-4.1", verbosity: "low" } as never),
    ).toEqual({ openai: { textVerbosity: "low" } });
  });
});
