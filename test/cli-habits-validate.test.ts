/**
 * `coord --validate --offline`, with the built CLI: a config checked in CI
 * without API keys. Everything but key presence is still checked, and the report says so.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";

const corpus = (name: string) => `${REPO_ROOT}test/fixtures/massgen/${name}`;
/** The MassGen configs whose only problem without keys is the keys. */
const VALID_WITH_KEYS = [
  "backend-parameters.yaml",
  "coordination.yaml",
  "provider-types.yaml",
  "tools-and-env.yaml",
];

describe("--validate --offline", () => {
  test("configs invalid only for want of keys are valid offline, saying keys were not checked", async () => {
    const sandbox = await makeSandbox();
    for (const name of VALID_WITH_KEYS) {
      const withoutKeys = await runCli(["--validate", "--config", corpus(name)], sandbox);
      expect(withoutKeys.code, name).toBe(1);
      expect(withoutKeys.stderr, name).toMatch(/API key/);
      const offline = await runCli(["--validate", "--offline", "--config", corpus(name)], sandbox);
      expect(offline.stderr, name).not.toMatch(/API key/);
      expect(offline.code, name).toBe(0);
      expect(offline.stdout, name).toMatch(/: valid \(.*--offline: API keys not checked\)\n$/);
    }
    const json = await runCli(
      ["--validate", "--offline", "--json", "--config", corpus("provider-types.yaml")],
      sandbox,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, offline: true, errors: [] });
  });

  test("everything but key presence is still checked", async () => {
    const sandbox = await makeSandbox();
    // A Python framework coord cannot run: still an error offline.
    const ag2 = await runCli(["--validate", "--offline", "--config", corpus("ag2.yaml")], sandbox);
    expect(ag2.code).toBe(1);
    expect(ag2.stderr).toMatch(/`ag2` is AG2/);
    // A schema error and a missing local model file: still errors offline.
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      [
        "agents:",
        "  - id: a",
        "    backend: {type: local, model: ./missing.gguf}",
        "  - id: b",
        "    backend: {type: openai, model: gpt-4o-mini, temperature: hot}",
      ].join("\n"),
    );
    const team = await runCli(["--validate", "--offline", "--config", "team.yaml"], sandbox);
    expect(team.code).toBe(1);
    expect(team.stderr).toMatch(/temperature/);
    await writeFile(
      join(sandbox.cwd, "local.yaml"),
      "agents:\n  - id: a\n    backend: {type: local, model: ./missing.gguf}\n",
    );
    const local = await runCli(["--validate", "--offline", "--config", "local.yaml"], sandbox);
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/missing\.gguf does not exist/);
    // A secret-named ${VAR} the config names is a key too: not checked offline.
    await writeFile(
      join(sandbox.cwd, "keyed.yaml"),
      [
        "agents:",
        "  - id: a",
        "    backend:",
        "      type: openai",
        "      model: gpt-4o-mini",
        "      api_key: ${MY_API_KEY}",
      ].join("\n"),
    );
    const keyed = await runCli(["--validate", "--config", "keyed.yaml"], sandbox);
    expect(keyed.stderr).toMatch(/MY_API_KEY is not set/);
    const offline = await runCli(
      ["--validate", "--offline", "--json", "--config", "keyed.yaml"],
      sandbox,
    );
    expect(JSON.parse(offline.stdout)).toMatchObject({ valid: true, offline: true });
  });

  test("--offline goes with --validate only", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--offline", "--config", "@examples/scripted_team", "Hi"],
      sandbox,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--offline goes with --validate/);
  });
});
