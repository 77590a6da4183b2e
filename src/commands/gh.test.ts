import { describe, expect, test } from "vitest";
import { deleteGist, type GhResult, gistIdOf, listGists } from "./gh.js";

const ok = (stdout: string): GhResult => ({ code: 0, stdout, stderr: "" });

describe("gh's contract as coord reads it", () => {
  test.each([
    ["0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"],
    ["https://gist.github.com/you/abc123", "abc123"],
    ["https://gist.github.com/abc123", "abc123"],
    ["https://coord-cli.github.io/share/?gist=abc123", "abc123"],
    ["http://localhost:5173/?x=1&gist=abc123", "abc123"],
    ["not a gist", undefined],
    ["https://gist.github.com/you/abc/extra", undefined],
  ])("gistIdOf(%j) = %j", (text, id) => expect(gistIdOf(text)).toBe(id));

  test("gist list: gh's tab-separated lines when not on a terminal", async () => {
    const gists = await listGists(
      async () =>
        ok(
          "aaa\tcoord session: What is 2+2?\t6 files\tsecret\t2026-01-02T03:04:05Z\n" +
            "bbb\tnotes\t1 file\tpublic\t2025-12-31T23:59:59Z\n\n",
        ),
      10,
    );
    expect(gists).toEqual([
      {
        id: "aaa",
        description: "coord session: What is 2+2?",
        files: 6,
        visibility: "secret",
        updated: "2026-01-02T03:04:05Z",
      },
      {
        id: "bbb",
        description: "notes",
        files: 1,
        visibility: "public",
        updated: "2025-12-31T23:59:59Z",
      },
    ]);
  });

  test("gist delete: --yes, then without it for a gh that does not know it; other failures are errors", async () => {
    const calls: string[][] = [];
    await deleteGist(async (args) => {
      calls.push([...args]);
      return args.includes("--yes")
        ? { code: 1, stdout: "", stderr: "unknown flag: --yes\n\nUsage: …" }
        : ok("");
    }, "abc");
    expect(calls).toEqual([
      ["gist", "delete", "abc", "--yes"],
      ["gist", "delete", "abc"],
    ]);
    await expect(
      deleteGist(async () => ({ code: 1, stdout: "", stderr: "HTTP 502: Bad Gateway\n" }), "abc"),
    ).rejects.toThrow("gh gist delete failed: HTTP 502: Bad Gateway");
  });
});
