/**
 * The socket time limits' settings: the COORD_SERVER_*_TIMEOUT_MS variables
 * override the defaults one by one, and a value that is not a whole number of milliseconds is a
 * ConfigError naming the variable (never a silent default, never Node's own range error).
 */
import { expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { DEFAULT_TIMEOUTS, serverTimeoutsFromEnv } from "./start-server.js";

test("each variable overrides its limit; unset or empty ones keep the default", () => {
  expect(serverTimeoutsFromEnv({})).toEqual({});
  expect(
    serverTimeoutsFromEnv({
      COORD_SERVER_HEADERS_TIMEOUT_MS: "250",
      COORD_SERVER_BODY_TIMEOUT_MS: "",
      COORD_SERVER_IDLE_TIMEOUT_MS: "1000",
    }),
  ).toEqual({ headersMs: 250, idleMs: 1000 });
  expect(DEFAULT_TIMEOUTS).toEqual({
    headersMs: 30_000,
    bodyMs: 60_000,
    keepAliveMs: 5_000,
    idleMs: 60_000,
  });
});

test("a value that is not a whole number of milliseconds from 1 to 2147483647 is refused", () => {
  for (const value of ["0", "-5", "1.5", "soon", "2147483648"]) {
    expect(() => serverTimeoutsFromEnv({ COORD_SERVER_BODY_TIMEOUT_MS: value }), value).toThrow(
      new ConfigError(
        `COORD_SERVER_BODY_TIMEOUT_MS=${JSON.stringify(value)}: expected a whole number of milliseconds from 1 to 2147483647`,
      ),
    );
  }
});
