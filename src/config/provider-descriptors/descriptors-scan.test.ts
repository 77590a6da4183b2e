/**
 * Provider facts are written once, in the descriptors: this scans every source file under src/
 * (tests and the descriptors aside) for a hand-written copy of one — a list of backend types or
 * of provider names, a key variable, a host of the `chatcompletion` host table, a list of the
 * wizard's models — since a copy beside the descriptors is how facts drift apart. Each kind of
 * copy is also fed to the scan by hand (the copies this file's history removed), to prove the
 * scan sees it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../examples.js";
import { KEY_VARIABLES, PROVIDER_DESCRIPTORS, PROVIDER_HOSTS } from "./index.js";

/** A kind of provider fact a source file may copy. */
type Fact = "types" | "labels" | "keyVariables" | "hosts" | "models";

const TYPES = new Set<string>(PROVIDER_DESCRIPTORS.map((descriptor) => descriptor.type));
const VARIABLES = new Set<string>([
  ...KEY_VARIABLES,
  ...PROVIDER_DESCRIPTORS.flatMap((descriptor) => [
    ...(descriptor.alsoReads ?? []),
    ...(descriptor.baseUrlVariable !== undefined ? [descriptor.baseUrlVariable] : []),
  ]),
]);
const DOMAINS = new Set(PROVIDER_HOSTS.map((host) => host.domain));
const MODELS = new Set(
  PROVIDER_DESCRIPTORS.flatMap((descriptor) => [
    ...(descriptor.setup?.fastModels ?? []),
    ...(descriptor.setup?.strongModels ?? []),
  ]),
);
/** Names a reader knows a provider by: each label, and its capitalised words (`Anthropic`, `Claude`). */
const NAMES = [
  ...new Set(
    PROVIDER_DESCRIPTORS.flatMap((descriptor) => [
      descriptor.label.replace(/\s*\(.*\)$/, ""),
      ...descriptor.label.split(/[\s()]+/).filter((word) => /^[A-Z][\w.]{2,}$/.test(word)),
    ]),
  ),
].sort((a, b) => b.length - a.length);

const SEPARATOR = String.raw`(?:,? or |,? and |, )`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const TYPE_ITEM = String.raw`\x60(?:${[...TYPES].join("|")})\x60`;
const NAME_ITEM = String.raw`(?<![\w.])(?:${NAMES.map(escape).join("|")})(?![\w-])`;
/** Three or more items in a row: `a`, `b` or `c`. */
const proseList = (item: string) => new RegExp(`${item}(?:${SEPARATOR}${item}){2,}`, "g");
const TYPE_PROSE = proseList(TYPE_ITEM);
const NAME_PROSE = proseList(NAME_ITEM);

/**
 * The string literals of a source text, comments dropped: `"…"`, `'…'` and template literals,
 * without their quotes. (A rough lexer: enough to tell a message from a comment.)
 */
export function stringLiterals(text: string): string[] {
  const tokens =
    /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  return [...text.matchAll(tokens)]
    .map((match) => match[0])
    .filter((token) => !token.startsWith("/"))
    .map((token) => token.slice(1, -1));
}

/** True when a prose list found in `literal` at `end` goes on with "…" (an example, not a list). */
function goesOn(literal: string, end: number): boolean {
  return literal.slice(end, end + 40).includes("…");
}

/** Backend types named together in code: array literals, switch cases, object keys. */
function typesInCode(text: string): string[] {
  const groups = [
    // Array literals: ["openai", "claude", "gemini"].
    ...[...text.matchAll(/\[[^[\]]*\]/g)].map((match) => match[0]),
    // Switch cases and object keys across the file: case "openai": / openai: "…".
    [...text.matchAll(/case "([a-z_]+)":/g)].map((match) => `"${match[1]}"`).join(" "),
    [...text.matchAll(/^\s+"?([a-z_]+)"?: /gm)].map((match) => `"${match[1]}"`).join(" "),
  ];
  for (const group of groups) {
    const named = new Set(
      [...group.matchAll(/"([a-z_]+)"/g)]
        .map((match) => match[1]!)
        .filter((name) => TYPES.has(name)),
    );
    if (named.size >= 3) return [...named];
  }
  return [];
}

/** The provider facts `text` (one source file) writes by hand, by kind; empty kinds left out. */
export function copiedFacts(text: string): Partial<Record<Fact, string[]>> {
  const found: Partial<Record<Fact, string[]>> = {};
  const add = (fact: Fact, what: string) => (found[fact] ??= []).push(what);
  for (const type of typesInCode(text)) add("types", type);
  const literals = stringLiterals(text);
  const models = new Set<string>();
  for (const literal of literals) {
    for (const [fact, pattern] of [
      ["types", TYPE_PROSE],
      ["labels", NAME_PROSE],
    ] as const) {
      for (const match of literal.matchAll(pattern)) {
        if (!goesOn(literal, match.index + match[0].length)) add(fact, match[0]);
      }
    }
    if (VARIABLES.has(literal)) add("keyVariables", literal);
    if (DOMAINS.has(literal)) add("hosts", literal);
    if (MODELS.has(literal)) models.add(literal);
  }
  // One model name is an example; two are a list.
  if (models.size >= 2) for (const model of models) add("models", model);
  return found;
}

/**
 * Source files that still write provider facts by hand, and why. Each is a place the facts are
 * not read from the descriptors; the list only shrinks.
 */
const KNOWN_COPIES: Readonly<Record<string, { facts: readonly Fact[]; why: string }>> = {
  "src/backends/providers/index.ts": {
    facts: ["types"],
    why: "keyed by implementation, whose names some types share",
  },
  "src/backends/hosted-chat.ts": {
    facts: ["types"],
    why: "a switch over ai SDK package names (groq, fireworks, cerebras)",
  },
};

/** Every source file under src/ (tests and the descriptors aside) that copies a fact. */
function filesCopyingFacts(): Map<string, Partial<Record<Fact, string[]>>> {
  const root = packageRoot();
  const files = globSync(["src/**/*.{ts,tsx}"], {
    cwd: root,
    ignore: ["**/*.test.ts", "**/*.test.tsx", "src/config/provider-descriptors/**"],
  });
  const found = new Map<string, Partial<Record<Fact, string[]>>>();
  for (const file of files) {
    const facts = copiedFacts(readFileSync(join(root, file), "utf8"));
    if (Object.keys(facts).length > 0) found.set(file, facts);
  }
  return found;
}

describe("no provider fact written by hand outside the descriptors", () => {
  it("finds copies only in the known files, of the known kinds", () => {
    const unexpected = [...filesCopyingFacts()].flatMap(([file, facts]) =>
      Object.entries(facts)
        .filter(
          ([fact]) => !(KNOWN_COPIES[file]?.facts as readonly string[] | undefined)?.includes(fact),
        )
        .map(([fact, what]) => `${file}: ${fact} ${what.join(", ")}`),
    );
    expect(unexpected, "read these from PROVIDER_DESCRIPTORS instead").toEqual([]);
  });

  it("every known file still holds its copy (an entry whose copy is gone must be removed)", () => {
    const found = filesCopyingFacts();
    const stale = Object.entries(KNOWN_COPIES).flatMap(([file, known]) =>
      known.facts
        .filter((fact) => found.get(file)?.[fact] === undefined)
        .map((f) => `${file} ${f}`),
    );
    expect(stale).toEqual([]);
  });
});

describe("the scan sees each kind of copy", () => {
  it("a hand-written list of types, in code or in a message", () => {
    expect(copiedFacts('const TYPES = ["openai", "claude", "gemini"];').types).toHaveLength(3);
    // The provider-options schema's web search description before it read the capabilities.
    const described =
      'z.boolean().describe("`openai`, `claude`, `gemini`, `grok`: offer web search")';
    expect(copiedFacts(described).types).toEqual(["`openai`, `claude`, `gemini`, `grok`"]);
    // An example list that goes on ("…") is not a copy; nor is a list in a comment.
    expect(copiedFacts('"(`claude`, `gemini`, `local`, vLLM …)"').types).toBeUndefined();
    expect(copiedFacts("// `openai`, `claude`, `gemini`").types).toBeUndefined();
  });

  it("a hand-written list of provider names (the wizard's web search warning)", () => {
    const warning = '"Web search needs OpenAI, Anthropic, Gemini or xAI: the config uses OpenAI"';
    expect(copiedFacts(warning).labels).toEqual(["OpenAI, Anthropic, Gemini or xAI"]);
    expect(
      copiedFacts('"vLLM, Ollama, LM Studio, llama.cpp, … at a base URL"').labels,
    ).toBeUndefined();
  });

  it("a hand-written key variable (validate --offline's own set)", () => {
    const copy = 'const keys = new Set<string>(["CLAUDE_CODE_OAUTH_TOKEN"]);';
    expect(copiedFacts(copy).keyVariables).toEqual(["CLAUDE_CODE_OAUTH_TOKEN"]);
  });

  it("a hand-written host (the old PROVIDER_HOSTS table)", () => {
    const row = '{ domain: "groq.com", provider: "groq", keyVariable: "GROQ_API_KEY" },';
    expect(copiedFacts(row)).toMatchObject({ hosts: ["groq.com"], keyVariables: ["GROQ_API_KEY"] });
    // A URL in a message is an example, not the table.
    expect(copiedFacts('"(e.g. https://groq.com/openai/v1)"').hosts).toBeUndefined();
  });

  it("a hand-written list of the wizard's models (the old PROVIDERS table)", () => {
    const row = 'fastModels: ["gpt-4o-mini", "gpt-4.1-mini", "gpt-4.1-nano"],';
    expect(copiedFacts(row).models).toEqual(["gpt-4o-mini", "gpt-4.1-mini", "gpt-4.1-nano"]);
    expect(copiedFacts('const model = "gpt-4o-mini";').models).toBeUndefined();
  });
});
