import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { loadDataset, seededRandom, selectItems } from "./dataset.js";

async function file(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "coord-dataset-"));
  const path = join(dir, "data.jsonl");
  await writeFile(path, text);
  return path;
}

const fields = { question: "question", answer: "answer" };

describe("loadDataset", () => {
  test("GSM8K-shaped lines; ids are line numbers; blank lines skipped", async () => {
    const path = await file(
      '{"question": "q1", "answer": "a #### 1"}\n\n{"question": "q2", "answer": "a #### 2"}\n',
    );
    const dataset = await loadDataset(path, fields);
    expect(dataset.items).toEqual([
      { id: "1", line: 1, question: "q1", answer: "a #### 1" },
      { id: "3", line: 3, question: "q2", answer: "a #### 2" },
    ]);
    expect(dataset.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test("field mapping: dotted paths, numbers as text, an id field", async () => {
    const path = await file(
      '{"uid": "x-1", "input": {"text": "What is 2+2?"}, "target": 4}\n{"uid": "x-2", "input": {"text": "3+3?"}, "target": "6"}\n',
    );
    const dataset = await loadDataset(path, {
      question: "input.text",
      answer: "target",
      id: "uid",
    });
    expect(dataset.items.map((item) => [item.id, item.question, item.answer])).toEqual([
      ["x-1", "What is 2+2?", "4"],
      ["x-2", "3+3?", "6"],
    ]);
  });

  test("bad lines: one-line errors naming the file, line and fix", async () => {
    const missing = await file('{"question": "q"}\n');
    await expect(loadDataset(missing, fields)).rejects.toThrow(
      new RegExp(
        `${missing}:1: no text at field "answer" \\(the line's keys: question\\); choose the field with --answer-field`,
      ),
    );
    const notJson = await file('{"question": "q", "answer": "a"}\nnot json\n');
    await expect(loadDataset(notJson, fields)).rejects.toThrow(/:2: not a JSON object/);
    const twice = await file(
      '{"id": 1, "question": "q", "answer": "a"}\n{"id": 1, "question": "q", "answer": "a"}\n',
    );
    await expect(loadDataset(twice, { ...fields, id: "id" })).rejects.toThrow(
      /:2: item id "1" .* appears twice/,
    );
    await expect(loadDataset(await file("\n"), fields)).rejects.toThrow(/has no items/);
    await expect(loadDataset("/nonexistent/data.jsonl", fields)).rejects.toBeInstanceOf(
      ConfigError,
    );
  });
});

describe("selectItems", () => {
  const items = Array.from({ length: 100 }, (_, index) => ({
    id: String(index + 1),
    line: index + 1,
    question: `q${index + 1}`,
    answer: "a",
  }));

  test("limit: the first N", () => {
    expect(selectItems(items, { kind: "limit", limit: 3 }).map((item) => item.id)).toEqual([
      "1",
      "2",
      "3",
    ]);
  });

  test("sample: N distinct items in file order, the same for the same seed, others for another", () => {
    const first = selectItems(items, { kind: "sample", size: 10, seed: 1 }).map(
      (item) => item.line,
    );
    const again = selectItems(items, { kind: "sample", size: 10, seed: 1 }).map(
      (item) => item.line,
    );
    const other = selectItems(items, { kind: "sample", size: 10, seed: 2 }).map(
      (item) => item.line,
    );
    expect(first).toEqual(again);
    expect(new Set(first).size).toBe(10);
    expect([...first].sort((a, b) => a - b)).toEqual(first);
    expect(other).not.toEqual(first);
    expect(selectItems(items, { kind: "sample", size: 500, seed: 1 })).toHaveLength(100);
  });

  test("the seeded generator is uniform enough to sample with", () => {
    const random = seededRandom(42);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) buckets[Math.floor(random() * 10)]!++;
    for (const count of buckets) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });
});
