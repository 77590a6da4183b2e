import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { envFilePath, loadEnvFiles, mergeEnvText, writeEnvFile } from "./env.js";

describe("loadEnvFiles", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "coord-env-"));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("returns the environment alone when there is no .env file", async () => {
    expect(await loadEnvFiles({ home, env: { A: "1", UNSET: undefined } })).toEqual({ A: "1" });
  });

  it("merges ~/.config/coord/.env under the environment (the environment wins)", async () => {
    await mkdir(join(home, ".config", "coord"), { recursive: true });
    await writeFile(
      envFilePath(home),
      [
        "# keys written by the setup wizard",
        "OPENAI_API_KEY=sk-from-file",
        'ZAI_API_KEY="zai from file"',
        "EMPTY_IN_ENV=file",
      ].join("\n"),
    );
    const env = { OPENAI_API_KEY: "sk-from-env", EMPTY_IN_ENV: "", PATH: "/bin" };
    const merged = await loadEnvFiles({ home, env });
    expect(merged).toEqual({
      OPENAI_API_KEY: "sk-from-env",
      ZAI_API_KEY: "zai from file",
      EMPTY_IN_ENV: "",
      PATH: "/bin",
    });
    expect(env).toEqual({ OPENAI_API_KEY: "sk-from-env", EMPTY_IN_ENV: "", PATH: "/bin" });
  });
});

describe("mergeEnvText", () => {
  it("replaces the first assignment, drops later ones, appends new names, keeps the rest", () => {
    const existing = [
      "# my keys",
      "OPENAI_API_KEY=old",
      "",
      "export GEMINI_API_KEY=g",
      "OPENAI_API_KEY=older",
      "COORD_MODEL=gpt-4o-mini",
    ].join("\n");
    expect(mergeEnvText(existing, { OPENAI_API_KEY: "sk-new", ANTHROPIC_API_KEY: "sk-ant" })).toBe(
      [
        "# my keys",
        "OPENAI_API_KEY=sk-new",
        "",
        "export GEMINI_API_KEY=g",
        "COORD_MODEL=gpt-4o-mini",
        "ANTHROPIC_API_KEY=sk-ant",
        "",
      ].join("\n"),
    );
    expect(mergeEnvText("", { A: "1" })).toBe("A=1\n");
    expect(mergeEnvText("export A=0\r\nB=2\r\n", { A: "1" })).toBe("A=1\nB=2\n");
  });

  it("quotes what is not plain so that parseEnv reads back the same values", () => {
    const text = mergeEnvText("", {
      URL: "https://x.openai.azure.com/",
      SPACED: "a b#c",
      QUOTE: "it's",
    });
    expect(text).toBe("URL=https://x.openai.azure.com/\nSPACED='a b#c'\nQUOTE=\"it's\"\n");
    expect(parseEnv(text)).toEqual({
      URL: "https://x.openai.azure.com/",
      SPACED: "a b#c",
      QUOTE: "it's",
    });
  });

  it("round-trips any single-line value without both quote kinds (property)", () => {
    const value = fc
      .string({ unit: "grapheme-ascii", maxLength: 40 })
      .filter((v) => !/[\r\n]/.test(v) && !(v.includes("'") && v.includes('"')));
    fc.assert(
      fc.property(value, (v) => {
        expect(parseEnv(mergeEnvText("OTHER=1\n", { KEY: v }))).toEqual({ OTHER: "1", KEY: v });
      }),
    );
  });

  it("refuses names and values the format cannot hold", () => {
    expect(() => mergeEnvText("", { "1A": "x" })).toThrow(ConfigError);
    expect(() => mergeEnvText("", { A: "x\ny" })).toThrow("A: a value in .env cannot span lines");
    expect(() => mergeEnvText("", { A: `'"` })).toThrow(ConfigError);
  });
});

describe("writeEnvFile", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "coord-env-write-"));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("creates ~/.config/coord/.env with mode 0600 and merges into it later", async () => {
    const path = await writeEnvFile({ home, entries: { OPENAI_API_KEY: "sk-1" } });
    expect(path).toBe(envFilePath(home));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, ".config", "coord"))).mode & 0o777).toBe(0o700);

    await writeFile(path, "# mine\nOPENAI_API_KEY=sk-1\nOTHER=keep\n", { mode: 0o644 });
    await writeEnvFile({ home, entries: { ZAI_API_KEY: "z" } });
    expect(await readFile(path, "utf8")).toBe(
      "# mine\nOPENAI_API_KEY=sk-1\nOTHER=keep\nZAI_API_KEY=z\n",
    );
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(home, ".config", "coord"))).toEqual([".env"]);
    expect(await loadEnvFiles({ home, env: {} })).toEqual({
      OPENAI_API_KEY: "sk-1",
      OTHER: "keep",
      ZAI_API_KEY: "z",
    });
  });
});
