/**
 * Issue 30 rows 4, 8 and 9 through the built CLI: an agent's `read_file` of a FIFO, its
 * `search_files` with `(a+)+$`, and its `read_file` of a 1 GB sparse file. Before, the first hung
 * the run for good (timeouts and SIGTERM ignored), the second blocked the event loop for seconds
 * per character, the third took 20 s and a gigabyte of memory. Now each is a prompt tool result the
 * scripted agent reads (`expect_prompt_contains`), and the run completes.
 */
import { execFileSync } from "node:child_process";
import { mkdir, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

const TEAM = `
orchestrator:
  context_paths:
    - path: data
      permission: read
agents:
  - id: reader
    backend:
      type: scripted
      cwd: ws
      steps:
        - tool_calls: [{ name: read_file, input: { path: DATA/ff } }]
        - tool_calls: [{ name: search_files, input: { pattern: "(a+)+$", path: DATA } }]
          expect_prompt_contains: "ff is a FIFO (named pipe), not a regular file"
        - tool_calls: [{ name: read_file, input: { path: DATA/big.log, start_line: 2, end_line: 2 } }]
          expect_prompt_contains: "notes.txt:2: aaa"
        - answer: "Read what could be read."
          expect_prompt_contains: "only the first 10485760 of its 1073741824 bytes were read"
        - text: "Done."
`;

test(
  "read_file of a FIFO, search_files with (a+)+$, read_file of a 1 GB sparse file: prompt answers, the run completes",
  { timeout: 60_000 },
  async () => {
    const box = await makeSandbox();
    const data = join(box.cwd, "data");
    await mkdir(data);
    execFileSync("mkfifo", [join(data, "ff")]);
    await writeFile(join(data, "notes.txt"), `${"a".repeat(30)}!\naaa\n`);
    await writeFile(join(data, "big.log"), "line 1\nline 2\n");
    await truncate(join(data, "big.log"), 2 ** 30);
    await writeFile(join(box.cwd, "team.yaml"), TEAM.replaceAll("DATA", data));

    const result = await runCli(["--config", "team.yaml", "--no-display", "Read the data"], box);
    expect(result.stdout).toBe("Done.\n");
    expect(result.code).toBe(0);
    // (a+)+$ over 30 `a`s alone would take JavaScript's engine minutes, past this test's timeout;
    // src/tools/file-tools-special.test.ts proves, without a clock, that re2js runs it.

    const events = (await readLog(await onlyAttemptDir(box.cwd), "events.jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const results = events.filter(
      (event) => event.type === "tool-result" && /_file/.test(String(event.toolName)),
    );
    expect(results.map((event) => [event.toolName, event.isError === true])).toEqual([
      ["read_file", true],
      ["search_files", false],
      ["read_file", false],
    ]);
  },
);
