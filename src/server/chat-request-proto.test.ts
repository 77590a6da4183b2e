/**
 * `__proto__`, `constructor` and `prototype` in a chat request body are plain
 * keys: JSON.parse makes them own properties, and readChatRequest reads only own fields, so a
 * body cannot smuggle `stream`, `model` or a message's `role` in through a prototype, nor change
 * any object's prototype.
 */
import { describe, expect, test } from "vitest";
import { ApiError } from "./api-error.js";
import { parseJsonBody, readChatRequest } from "./chat-request.js";

describe("reserved keys in a chat request body", () => {
  test("a __proto__ object's fields are not the body's", () => {
    const body = parseJsonBody(
      '{"__proto__": {"stream": true, "model": 5, "messages": 1}, "constructor": {"prototype": {"x": 1}}, "messages": [{"role": "user", "content": "hi"}]}',
    );
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(readChatRequest(body)).toEqual({
      model: undefined,
      question: "hi",
      history: [],
      systemMessage: undefined,
      stream: false,
      includeUsage: false,
      options: { responseFormat: undefined, generation: {}, generationFields: {} },
    });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).stream).toBeUndefined();
  });

  test("a message whose role comes only from __proto__ has no role", () => {
    const body = parseJsonBody('{"messages": [{"__proto__": {"role": "user"}, "content": "hi"}]}');
    expect(() => readChatRequest(body)).toThrow(ApiError);
    expect(() => readChatRequest(body)).toThrow("messages[0].role is required");
  });
});
