/**
 * Context overflows as the providers word them, and errors that are not one.
 * The socket-level proof (one request, never retried) is in `provider-refusals.test.ts`.
 */
import { describe, expect, test } from "vitest";
import { BackendError, isContextLengthError } from "./backend.js";
import { contextOverflowOf } from "./context-length.js";

describe("contextOverflowOf", () => {
  test.each([
    [
      "OpenAI",
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
      8192,
    ],
    [
      "vLLM",
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      4096,
    ],
    [
      "OpenRouter",
      "This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input).",
      32768,
    ],
    ["Anthropic", "prompt is too long: 208656 tokens > 200000 maximum", 200000],
    [
      "Anthropic, with max_tokens",
      "input length and `max_tokens` exceed context limit: 189136 + 20000 > 204648, decrease input length or `max_tokens` and try again",
      204648,
    ],
    [
      "Gemini",
      "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
      1048576,
    ],
    [
      "xAI",
      "This model's maximum prompt length is 131072 but the request contains 150000 tokens.",
      131072,
    ],
    [
      "vLLM decoder prompt",
      "The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.",
      4096,
    ],
    [
      "LM Studio",
      "Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough.",
      32768,
    ],
    ["llama-cpp-python", "Requested tokens (2285) exceed context window of 2048", 2048],
  ])("%s: recognised, with the window", (_provider, message, window) => {
    expect(contextOverflowOf(message)).toEqual({ contextWindow: window });
  });

  test("the OpenAI Responses API names no window: recognised by its text and code", () => {
    const message =
      "Your input exceeds the context window of this model. Please adjust your input and try again.";
    expect(contextOverflowOf(message)).toEqual({});
    expect(contextOverflowOf("bad request", { code: "context_length_exceeded" })).toEqual({});
  });

  test("llama.cpp: the error type and n_ctx of its body", () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message:
          "the request exceeds the available context size. try increasing the context size or enable context shift",
        type: "exceed_context_size_error",
        n_prompt_tokens: 14429,
        n_ctx: 8192,
      },
    });
    expect(contextOverflowOf("llama returned HTTP 400: …", body)).toEqual({ contextWindow: 8192 });
  });

  test("other errors are not overflows", () => {
    expect(contextOverflowOf("Rate limit reached for gpt-4o")).toBeUndefined();
    expect(
      contextOverflowOf("Incorrect API key provided", { code: "invalid_api_key" }),
    ).toBeUndefined();
    expect(
      contextOverflowOf('tool_choice = "required" is not supported!', "not json"),
    ).toBeUndefined();
  });
});

describe("BackendError of kind context-length", () => {
  test("is never retryable, whatever the status said", () => {
    const error = new BackendError({
      message: "llama returned HTTP 500: the request exceeds the available context size",
      provider: "llama",
      status: 500,
      retryable: true,
      kind: "context-length",
    });
    expect(error.retryable).toBe(false);
    expect(isContextLengthError(error)).toBe(true);
    expect(isContextLengthError(new Error("prompt is too long"))).toBe(false);
  });
});
