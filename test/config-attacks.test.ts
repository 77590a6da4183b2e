/**
 * Config values that are names, not paths, and keys that are not JavaScript's, through the built
 * CLI: an agent id that climbs out of the run (`../../../../../victim`) is refused by `--validate`
 * and by a run with `file:line:col`, exit 1, and the folder it aimed at keeps its file; a
 * `__proto__` key under `backend:` is a positioned config error (exit 1), not an internal error.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";

/** Writes a file into the agent's workspace, answers, votes, presents: what the attack needs. */
const ATTACK = `agents:
  - id: "../../../../../victim"
    backend:
      type: scripted
      cwd: ws
      steps:
        - tool_calls:
            - name: write_file
              input: { path: pwned.txt, content: "pwned" }
        - answer: "done"
        - vote: agent1
          reason: ok
        - text: "final"
ui:
  display_type: simple
`;

const ID_ERROR =
  /attack\.yaml:2:9: agents\[0\]\.id: expected a name of 1-64 letters, digits, '\.', '_' or '-' that starts with a letter or digit, received "\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/victim"/;

describe("names are not paths", () => {
  test("an agent id with ../ is refused by --validate and by a run; the folder it aimed at is untouched", async () => {
    const sandbox = await makeSandbox();
    // <root>/work/.coord/workspaces/<run>/.snapshots/../../../../../victim is <root>/victim.
    const victim = join(dirname(sandbox.cwd), "victim");
    await mkdir(victim);
    await writeFile(join(victim, "keep.txt"), "precious\n");
    await writeFile(join(sandbox.cwd, "attack.yaml"), ATTACK);

    const validate = await runCli(["--validate", "--config", "attack.yaml"], sandbox);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toMatch(ID_ERROR);

    const run = await runCli(["--config", "attack.yaml", "Plan the release"], sandbox);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(ID_ERROR);
    expect(await readdir(victim)).toEqual(["keep.txt"]);
    expect(await readFile(join(victim, "keep.txt"), "utf8")).toBe("precious\n");
    // Nothing of the run was created either.
    expect(await readdir(sandbox.cwd)).toEqual(["attack.yaml"]);
  });

  test("session_id that climbs out of ~/.coord/sessions is refused where it is written", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "s.yaml"),
      `agents:\n  - id: a\n    backend: { type: scripted, steps: [{ answer: hi }] }\nsession_id: ../../x\n`,
    );
    const result = await runCli(["--validate", "--config", "s.yaml"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(
      /s\.yaml:4:13: session_id: expected a name of 1-64 letters/,
    );
  });
});

describe("keys JavaScript reserves", () => {
  test("__proto__ under backend: is a positioned config error with exit 1, for --validate, a run and serve", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "proto.yaml"),
      `agents:
  - id: a
    backend:
      type: openai
      model: gpt-4o-mini
      __proto__:
        x: 1
`,
    );
    const expected =
      "proto.yaml:6:7: agents[0].backend.__proto__: key __proto__ is not allowed (JavaScript reserves it on every object); rename or remove it";
    const env = { OPENAI_API_KEY: "sk-test-not-used-0000" };
    const validate = await runCli(["--validate", "--config", "proto.yaml"], { ...sandbox, env });
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain(expected);
    expect(validate.stderr).not.toContain("internal error");

    const run = await runCli(["--config", "proto.yaml", "hi"], { ...sandbox, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(expected);
    expect(run.stderr).not.toContain("internal error");

    // coord serve refuses to start with it (it once answered 500 with the internal error).
    const serve = await runCli(
      ["serve", "--config", "proto.yaml", "--host", "127.0.0.1", "--port", "0"],
      { ...sandbox, env, timeoutMs: 20_000 },
    );
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(expected);
  });
});
