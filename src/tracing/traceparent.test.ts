import { describe, expect, test } from "vitest";
import { formatTraceparent, parseTraceparent } from "./traceparent.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("parseTraceparent (through @opentelemetry/core)", () => {
  test("a version 00 header round-trips with formatTraceparent, surrounding blanks ignored", () => {
    expect(parseTraceparent(` ${formatTraceparent(TRACE, SPAN)} `)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: 1,
    });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.traceFlags).toBe(0);
  });

  test("malformed headers start a new trace", () => {
    for (const header of [
      `00-${TRACE}-${SPAN}-01-extra`, // version 00 has exactly four fields
      `00-${TRACE.toUpperCase()}-${SPAN}-01`, // lowercase hex only
      `00-${TRACE}-0000000000000000-01`, // all-zero span id
      `ff-${TRACE}-${SPAN}-01`, // version ff is invalid
      `02-${TRACE}-${SPAN}-01`, // a later version: coord takes 00 only
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      "",
    ]) {
      expect(parseTraceparent(header), header).toBeUndefined();
    }
  });
});
