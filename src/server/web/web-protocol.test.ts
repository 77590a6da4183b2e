import { describe, expect, test } from "vitest";
import { clientMessageText, parseClientMessage } from "./web-protocol.js";

describe("the web socket protocol, shared by the page and the server", () => {
  test("what the page sends is what the server reads", () => {
    const subscribe = { type: "subscribe", key: "s1/2", after: 17 } as const;
    expect(parseClientMessage(clientMessageText(subscribe))).toEqual(subscribe);
    const unsubscribe = { type: "unsubscribe", key: "s1/2" } as const;
    expect(parseClientMessage(clientMessageText(unsubscribe))).toEqual(unsubscribe);
  });

  test("a bad `after` reads as 0; other messages are refused", () => {
    expect(parseClientMessage('{"type":"subscribe","key":"s1/1","after":-3}')).toEqual({
      type: "subscribe",
      key: "s1/1",
      after: 0,
    });
    expect(parseClientMessage('{"type":"subscribe"}')).toBeUndefined();
    expect(parseClientMessage('{"type":"run","key":"s1/1"}')).toBeUndefined();
    expect(parseClientMessage("not json")).toBeUndefined();
    expect(parseClientMessage(42)).toBeUndefined();
  });
});
