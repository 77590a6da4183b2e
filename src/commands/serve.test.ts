/** `coord serve` options: flags over `COORD_SERVER_*` over the defaults (spec section 4.2). */
import { describe, expect, test } from "vitest";
import { serveSettings } from "./serve.js";

describe("serveSettings", () => {
  test("defaults: 0.0.0.0:4000, no config, no debug, 30 s grace", () => {
    expect(serveSettings({ logs: true }, {})).toEqual({
      host: "0.0.0.0",
      port: 4000,
      config: undefined,
      debug: false,
      shutdownGraceMs: 30_000,
    });
  });

  test("the environment over the defaults, flags over the environment", () => {
    const env = {
      COORD_SERVER_HOST: "127.0.0.1",
      COORD_SERVER_PORT: "8080",
      COORD_SERVER_DEFAULT_CONFIG: "team.yaml",
      COORD_SERVER_DEBUG: "true",
    };
    expect(serveSettings({ logs: true }, env)).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      config: "team.yaml",
      debug: true,
    });
    expect(
      serveSettings({ logs: true, host: "::1", port: 0, config: "@examples/scripted_team" }, env),
    ).toMatchObject({ host: "::1", port: 0, config: "@examples/scripted_team" });
    expect(serveSettings({ logs: true }, { COORD_SERVER_DEBUG: "1" }).debug).toBe(true);
    expect(serveSettings({ logs: true }, { COORD_SERVER_DEBUG: "false" }).debug).toBe(false);
    expect(serveSettings({ logs: true, shutdownTimeout: 0 }, {}).shutdownGraceMs).toBe(0);
  });

  test("a bad COORD_SERVER_PORT is a one-line ConfigError", () => {
    expect(() => serveSettings({ logs: true }, { COORD_SERVER_PORT: "http" })).toThrow(
      'COORD_SERVER_PORT="http": expected a port number from 0 to 65535',
    );
  });
});
