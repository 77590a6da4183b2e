/**
 * childPath and isSafeName: a name that would leave its folder is refused,
 * whatever its spelling; a safe name joins as `join` would.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { childPath, isSafeName, UnsafePathError } from "./safe-name.js";

describe("isSafeName", () => {
  test("letters, digits, '.', '_', '-' after a letter or digit, at most 64 characters", () => {
    for (const name of [
      "agent_a",
      "a",
      "A1",
      "gpt-4o.mini",
      "session_20250101_120000",
      "x".repeat(64),
    ])
      expect(isSafeName(name), name).toBe(true);
  });

  test("refuses traversal, separators, dot names, empty, leading punctuation and long names", () => {
    const refused = [
      "",
      ".",
      "..",
      "../../../../tmp/victim",
      "a/b",
      "a\\b",
      "/etc",
      ".hidden",
      "-flag",
      "a b",
      "a\0b",
      "é",
      "x".repeat(65),
    ];
    for (const name of refused) expect(isSafeName(name), JSON.stringify(name)).toBe(false);
  });
});

describe("childPath", () => {
  test("joins safe segments like join", () => {
    expect(childPath("/runs/r1", "agent_a", "snapshots", "agent1.1")).toBe(
      join("/runs/r1", "agent_a", "snapshots", "agent1.1"),
    );
    expect(childPath("rel/dir", "x")).toBe(join("rel/dir", "x"));
    // "..x" is a name inside the folder, not a way out.
    expect(childPath("/runs", "..x")).toBe("/runs/..x");
  });

  test("throws for every segment that would leave the folder or name it", () => {
    const escapes = [
      ["../../../../tmp/victim"],
      [".."],
      ["."],
      [""],
      ["/etc/passwd"],
      ["a/../../b"],
      ["a\\..\\..\\b"],
      ["ok", ".."],
      ["a\0b"],
    ];
    for (const segments of escapes) {
      expect(() => childPath("/runs/r1", ...segments), JSON.stringify(segments)).toThrow(
        UnsafePathError,
      );
    }
    expect(() => childPath("/runs/r1", "../../../../tmp/victim")).toThrow(
      /refused path "\.\.\/\.\.\/\.\.\/\.\.\/tmp\/victim": it leaves \/runs\/r1/,
    );
  });
});
