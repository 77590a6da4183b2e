import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { envFilePath, loadEnvFiles } from "./env.js";

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
