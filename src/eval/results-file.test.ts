import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigError, StoredFileError } from "../errors.js";
import {
  openResults,
  RESULTS_VERSION,
  type ResultsHeader,
  type RunRecord,
} from "./results-file.js";

const header: ResultsHeader = {
  type: "eval",
  v: RESULTS_VERSION,
  created: "2025-01-01T00:00:00.000Z",
  dataset: "/data.jsonl",
  dataset_sha256: "d1",
  config: "/team.yaml",
  config_sha256: "c1",
  fields: { question: "question", answer: "answer", id: null },
};

function run(item: string, runKey: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    type: "run",
    v: RESULTS_VERSION,
    item,
    run: runKey,
    answer: "The answer is 4.",
    status: "completed",
    calls: 1,
    input_tokens: 10,
    output_tokens: 5,
    cost_usd: null,
    wall_ms: 12,
    log_dir: null,
    error: null,
    time: "2025-01-01T00:00:01.000Z",
    ...overrides,
  };
}

async function path(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "coord-results-")), "eval", "results.jsonl");
}

describe("the results file", () => {
  test("created with its header; records read back; the latest record of a run wins", async () => {
    const file = await path();
    const results = await openResults(file, header);
    await results.append(run("1", "team", { status: "failed", answer: null }));
    await results.append(run("1", "team"));
    await results.append(run("2", "agent:a"));
    const again = await openResults(file, header);
    expect(again.runs.get("team")?.get("1")?.status).toBe("completed");
    expect(again.runs.get("agent:a")?.get("2")?.answer).toBe("The answer is 4.");
    expect((await readFile(file, "utf8")).split("\n")[0]).toBe(JSON.stringify(header));
  });

  test("a last line cut off by a kill is dropped, and the next record starts a new line", async () => {
    const file = await path();
    const results = await openResults(file, header);
    await results.append(run("1", "team"));
    await appendFile(file, JSON.stringify(run("2", "team")).slice(0, 40));
    const resumed = await openResults(file, header);
    expect([...resumed.runs.get("team")!.keys()]).toEqual(["1"]);
    await resumed.append(run("2", "team"));
    const final = await openResults(file, header);
    expect([...final.runs.get("team")!.keys()]).toEqual(["1", "2"]);
  });

  test("another data set, config or field mapping is refused with what to do", async () => {
    const file = await path();
    await openResults(file, header);
    await expect(openResults(file, { ...header, dataset_sha256: "d2" })).rejects.toThrow(
      /another data set .*; delete .* to start over, or choose another --out/,
    );
    await expect(openResults(file, { ...header, config_sha256: "c2" })).rejects.toBeInstanceOf(
      ConfigError,
    );
    await expect(
      openResults(file, { ...header, fields: { ...header.fields, answer: "target" } }),
    ).rejects.toThrow(/--answer-field/);
  });

  test("a broken line in the middle is an error naming the line", async () => {
    const file = await path();
    await openResults(file, header);
    await appendFile(file, "garbage\n" + JSON.stringify(run("1", "team")) + "\n");
    await expect(openResults(file, header)).rejects.toThrow(StoredFileError);
    await expect(openResults(file, header)).rejects.toThrow(/results\.jsonl:2: not a record/);
    const noHeader = await path();
    await openResults(noHeader, header);
    await writeFile(noHeader, JSON.stringify(run("1", "team")) + "\n");
    await expect(openResults(noHeader, header)).rejects.toThrow(/:1: not the header/);
  });
});
