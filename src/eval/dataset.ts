/**
 * The data set of `coord eval`: a JSON Lines file, one item per line, with a question and a
 * reference answer under configurable fields (`--question-field`, `--answer-field`, `--id-field`;
 * dotted paths reach nested objects), and the choice of items (`--limit N`, or `--sample N` with
 * `--seed S`: the same seed picks the same items). GSM8K's `{question, answer}` lines are the
 * default shape.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ConfigError } from "../errors.js";
import type { EvalItem } from "./scorers.js";

/** Which fields hold the question, the reference answer and (optionally) an item id. */
export interface FieldMap {
  question: string;
  answer: string;
  /** Default: the 1-based line number. */
  id?: string | undefined;
}

/** A loaded data set. */
export interface Dataset {
  /** Absolute path. */
  path: string;
  /** SHA-256 of the file's bytes (hex): a resumed eval must run on the same data. */
  sha256: string;
  /** Every item, in file order. */
  items: EvalItem[];
}

/**
 * Reads a JSONL data set. Blank lines are skipped; every other line must be a JSON object with a
 * string (or number) at the question and answer fields.
 * @param path absolute path.
 * @throws ConfigError naming the file and line for an unreadable file, a line that is not JSON,
 *   a missing field, a duplicate id, or an empty file.
 */
export async function loadDataset(path: string, fields: FieldMap): Promise<Dataset> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ConfigError(`cannot read the data set ${path}: ${(error as Error).message}`);
  }
  const items: EvalItem[] = [];
  const seen = new Set<string>();
  const lines = bytes.toString("utf8").split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new ConfigError(`${path}:${line}: not a JSON object (${(error as Error).message})`);
    }
    if (!isRecord(value)) throw new ConfigError(`${path}:${line}: not a JSON object`);
    const question = textField(value, fields.question, { path, line, flag: "--question-field" });
    const answer = textField(value, fields.answer, { path, line, flag: "--answer-field" });
    const id =
      fields.id === undefined
        ? String(line)
        : textField(value, fields.id, { path, line, flag: "--id-field" });
    if (seen.has(id))
      throw new ConfigError(
        `${path}:${line}: item id ${JSON.stringify(id)} (field ${fields.id}) appears twice; ids must be unique`,
      );
    seen.add(id);
    items.push({ id, line, question, answer });
  }
  if (items.length === 0) throw new ConfigError(`${path}: the data set has no items`);
  return { path, sha256: createHash("sha256").update(bytes).digest("hex"), items };
}

/** Which items to run: all, the first N, or N drawn at random with a seed. */
export type Selection =
  | { kind: "all" }
  | { kind: "limit"; limit: number }
  | { kind: "sample"; size: number; seed: number };

/**
 * The items a selection picks, in file order. A sample is drawn without replacement by a seeded
 * generator ({@link seededRandom}), so the same seed and file give the same items.
 */
export function selectItems(items: readonly EvalItem[], selection: Selection): EvalItem[] {
  switch (selection.kind) {
    case "all":
      return [...items];
    case "limit":
      return items.slice(0, selection.limit);
    case "sample": {
      if (selection.size >= items.length) return [...items];
      const random = seededRandom(selection.seed);
      const order = items.map((_, index) => index);
      // The first `size` steps of a Fisher–Yates shuffle.
      for (let i = 0; i < selection.size; i++) {
        const j = i + Math.floor(random() * (order.length - i));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      return order
        .slice(0, selection.size)
        .sort((a, b) => a - b)
        .map((index) => items[index]!);
    }
  }
}

/**
 * A seeded generator of uniform numbers in [0, 1): mulberry32 (Tommy Ettinger's 32-bit
 * generator), enough for drawing samples; not for cryptography.
 * @param seed any whole number (taken modulo 2^32).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function textField(
  record: Record<string, unknown>,
  field: string,
  where: { path: string; line: number; flag: string },
): string {
  let value: unknown = record;
  for (const part of field.split(".")) value = isRecord(value) ? value[part] : undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const keys = Object.keys(record).join(", ");
  throw new ConfigError(
    `${where.path}:${where.line}: no text at field "${field}" (the line's keys: ${keys}); choose the field with ${where.flag}`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
