/**
 * Config values that could misbehave as JavaScript keys or as path segments (docs/security.md
 * "What coord promises in every mode") are refused with `file:line:col` and a clear message:
 * `__proto__` / `constructor` / `prototype` keys anywhere, agent ids and `session_id` that are no
 * safe names, and a `backend.cwd` whose folder would be `.` or `..`.
 */
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { parseConfigText } from "./load.js";

function errorOf(text: string): ConfigError {
  try {
    parseConfigText(text, { source: "c.yaml", env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const agent = (extra = "", id = "a") =>
  `agents:\n  - id: ${id}\n    backend:\n      type: scripted\n      steps: [{ answer: hi }]\n${extra}`;

describe("JavaScript's reserved keys", () => {
  test("__proto__ under backend: a positioned config error, not an internal error", () => {
    const error = errorOf(agent("      __proto__:\n        reads: 1\n"));
    expect(error.message).toBe(
      "c.yaml:6:7: agents[0].backend.__proto__: key __proto__ is not allowed (JavaScript reserves it on every object); rename or remove it",
    );
    expect(error.details).toEqual({
      file: "c.yaml",
      path: "agents[0].backend.__proto__",
      line: 6,
      column: 7,
    });
  });

  test("constructor and prototype anywhere, also in a list, a flow map or an anchor", () => {
    expect(errorOf(`constructor: 1\n${agent()}`).message).toMatch(
      /^c\.yaml:1:1: constructor: key constructor is not allowed/,
    );
    expect(errorOf(agent("orchestrator: { x: [ { prototype: 2 } ] }\n")).message).toMatch(
      /^c\.yaml:6:24: orchestrator\.x\[0\]\.prototype: key prototype is not allowed/,
    );
    expect(errorOf(`base: &b { "__proto__": { polluted: true } }\n${agent()}`).message).toMatch(
      /^c\.yaml:1:12: base\.__proto__: key __proto__ is not allowed/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("the same words as values, and keys that merely contain them, load", () => {
    const { config } = parseConfigText(
      agent("    system_message: constructor __proto__ prototype\n", "proto_constructor"),
      { source: "c.yaml", env: {} },
    );
    expect(config.agents[0]!.system_message).toBe("constructor __proto__ prototype");
  });
});

describe("keys named like Object.prototype members", () => {
  test("toString, valueOf, hasOwnProperty, … are plain unknown keys: warned about, never an internal error", () => {
    for (const name of [
      "toString",
      "valueOf",
      "hasOwnProperty",
      "__defineGetter__",
      "isPrototypeOf",
    ]) {
      const text = `agents:\n  - id: a\n    backend:\n      type: openai\n      model: m\n      ${name}: 1\n${name}: 2\norchestrator:\n  ${name}: 3\n`;
      const { warnings } = parseConfigText(text, { source: "c.yaml", env: {} });
      expect(
        warnings.map((warning) => warning.message),
        name,
      ).toEqual([
        `c.yaml:6:7: unknown key agents[0].backend.${name} (ignored)`,
        `c.yaml:7:1: unknown key ${name} (ignored)`,
        `c.yaml:9:3: unknown key orchestrator.${name} (ignored)`,
      ]);
    }
  });
});

describe("names that become path segments", () => {
  test("an agent id that climbs out of the run is refused where it is written", () => {
    const error = errorOf(agent("", '"../../../../tmp/victim"'));
    expect(error.message).toBe(
      "c.yaml:2:9: agents[0].id: expected a name of 1-64 letters, digits, '.', '_' or '-' that starts with a letter or digit, received \"../../../../tmp/victim\"",
    );
  });

  test("ids with a separator, a dot name or a leading dot are refused; ordinary ids load", () => {
    for (const id of ['"a/b"', '".."', '"."', '".hidden"', '"a\\\\b"', '"/etc"']) {
      expect(errorOf(agent("", id)).message, id).toMatch(
        /^c\.yaml:2:9: agents\[0\]\.id: expected a name/,
      );
    }
    const { config } = parseConfigText(agent("", "gpt-4o.mini_2"), { source: "c.yaml", env: {} });
    expect(config.agents[0]!.id).toBe("gpt-4o.mini_2");
  });

  test("session_id is a name too", () => {
    expect(errorOf(`${agent()}session_id: ../../etc\n`).message).toMatch(
      /^c\.yaml:6:13: session_id: expected a name of 1-64 letters/,
    );
    const { config } = parseConfigText(`${agent()}session_id: session_20250101_120000\n`, {
      source: "c.yaml",
      env: {},
    });
    expect(config.session_id).toBe("session_20250101_120000");
  });

  test("a workspace (backend.cwd) whose folder would be `.` is refused; paths to a name load", () => {
    expect(errorOf(agent("      cwd: ws/..\n")).message).toMatch(
      /^c\.yaml:6:12: agents\[0\]\.backend\.cwd: the workspace folder would be "\.": expected a name/,
    );
    for (const cwd of ["ws", "./ws", "ws/", "/abs/path/ws"]) {
      const { config } = parseConfigText(agent(`      cwd: ${cwd}\n`), {
        source: "c.yaml",
        env: {},
      });
      expect(config.agents[0]!.backend.cwd).toBe(cwd);
    }
  });
});
