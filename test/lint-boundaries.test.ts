/**
 * The folder contract is enforced by lint, not by good intentions (docs/architecture.md "Allowed
 * imports"): ESLint, with the project's own config, fails
 * on a file in src/engine/ that imports the runner or node:fs, on a cross-folder import that
 * bypasses a folder's index.ts, on session/ importing store/ or the sessions registry or any Node
 * module (the view model is pure: the browser page bundles it), on the contract (events/) importing
 * the plan's rules and on those rules importing the engine, and on the runner (where the one turn
 * every front door runs lives, the server's included) importing a command; the same imports
 * through an allowed path pass.
 */
import { ESLint } from "eslint";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "./support/cli.js";

/** The in-memory files linted below (the type-aware parser's project service is shared). */
const FIXTURES = [
  "src/engine/lint-fixture.ts",
  "src/store/lint-fixture.ts",
  "src/session/lint-fixture.ts",
  "src/sessions/lint-fixture.ts",
  "src/ui/web/lint-fixture.ts",
  "src/events/lint-fixture.ts",
  "src/plan/lint-fixture.ts",
  "src/runner/lint-fixture.ts",
];

/** Lints `code` as if it were the file `path` (one of {@link FIXTURES}). */
async function lint(path: string, code: string): Promise<Array<{ rule: string; message: string }>> {
  const eslint = new ESLint({
    cwd: REPO_ROOT,
    // The files exist only in memory: let the type-aware parser take them outside the tsconfig.
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: { allowDefaultProject: FIXTURES } } },
    },
  });
  const [result] = await eslint.lintText(code, { filePath: `${REPO_ROOT}${path}` });
  return (result?.messages ?? []).map((message) => ({
    rule: message.ruleId ?? "(parse)",
    message: message.message,
  }));
}

describe("the folder contract, by lint", () => {
  test("engine/ importing runner/ fails with the boundary message", async () => {
    const messages = await lint(
      "src/engine/lint-fixture.ts",
      'import { runTeam } from "../runner/index.js";\nexport const used = runTeam;\n',
    );
    expect(messages.map((entry) => entry.rule)).toEqual(["no-restricted-imports"]);
    expect(messages[0]?.message).toContain(
      'docs/architecture.md "Allowed imports": src/engine/ may not import from src/runner/.',
    );
  }, 60_000);

  test("engine/ importing node:fs fails: the engine does no I/O", async () => {
    const messages = await lint(
      "src/engine/lint-fixture.ts",
      'import { readFileSync } from "node:fs";\nexport const used = readFileSync;\n',
    );
    expect(messages.map((entry) => entry.rule)).toEqual(["no-restricted-imports"]);
    expect(messages[0]?.message).toContain("CONTRIBUTING.md rule 1: the engine does no I/O");
  }, 60_000);

  test("a cross-folder import that bypasses index.ts fails; through index.ts it passes", async () => {
    const deep = await lint(
      "src/store/lint-fixture.ts",
      'import { reduceRun } from "../session/reducer.js";\nexport const used = reduceRun;\n',
    );
    expect(deep.map((entry) => entry.message)).toEqual([
      expect.stringContaining("Reach src/session/ through its index.ts") as unknown as string,
    ]);
    const viaIndex = await lint(
      "src/store/lint-fixture.ts",
      'import { reduceRun } from "../session/index.js";\nexport const used = reduceRun;\n',
    );
    expect(viaIndex).toEqual([]);
  }, 60_000);

  test("session/ may not import store/ (no folder cycle)", async () => {
    const messages = await lint(
      "src/session/lint-fixture.ts",
      'import { writeFileAtomic } from "../store/index.js";\nexport const used = writeFileAtomic;\n',
    );
    expect(messages.map((entry) => entry.message)).toEqual([
      expect.stringContaining("src/session/ may not import from src/store/") as unknown as string,
    ]);
  }, 60_000);

  test("session/ is pure: a Node module there fails, bare or node:-prefixed", async () => {
    for (const source of ["node:fs/promises", "fs", "node:path"]) {
      const messages = await lint(
        "src/session/lint-fixture.ts",
        `import * as io from "${source}";\nexport const used = io;\n`,
      );
      expect(messages.map((entry) => entry.rule)).toEqual(["no-restricted-imports"]);
      expect(messages[0]?.message).toContain("src/session/ is bundled for the browser");
    }
    const processUse = await lint(
      "src/session/lint-fixture.ts",
      "export const pid = process.pid;\n",
    );
    expect(processUse.map((entry) => entry.rule)).toEqual(["no-restricted-globals"]);
  }, 60_000);

  test("the registry (sessions/) sits above the view model: session/ may not import it", async () => {
    const up = await lint(
      "src/session/lint-fixture.ts",
      'import { createSessionStore } from "../sessions/index.js";\nexport const used = createSessionStore;\n',
    );
    expect(up.map((entry) => entry.message)).toEqual([
      expect.stringContaining(
        "src/session/ may not import from src/sessions/",
      ) as unknown as string,
    ]);
    const down = await lint(
      "src/sessions/lint-fixture.ts",
      'import { writeFileAtomic } from "../store/index.js";\nimport { readFile } from "node:fs/promises";\nimport type { RunState } from "../session/index.js";\nexport const used = [writeFileAtomic, readFile];\nexport type Used = RunState;\n',
    );
    expect(down).toEqual([]);
  }, 60_000);

  test("the page reaches session/ through its index.ts (pure now); the server's wire types by name", async () => {
    const deep = await lint(
      "src/ui/web/lint-fixture.ts",
      'import { reduceRun } from "../../session/reducer.js";\nexport const used = reduceRun;\n',
    );
    expect(deep.map((entry) => entry.message)).toEqual([
      expect.stringContaining("Reach src/session/ through its index.ts") as unknown as string,
    ]);
    const allowed = await lint(
      "src/ui/web/lint-fixture.ts",
      'import { reduceRun } from "../../session/index.js";\nimport { parseServerMessage } from "../../server/web/web-protocol.js";\nexport const used = [reduceRun, parseServerMessage];\n',
    );
    expect(allowed).toEqual([]);
    const registry = await lint(
      "src/ui/web/lint-fixture.ts",
      'import { createSessionStore } from "../../sessions/index.js";\nexport const used = createSessionStore;\n',
    );
    expect(registry.map((entry) => entry.message)).toEqual([
      expect.stringContaining("src/ui/web/ may not import from src/sessions/") as unknown as string,
    ]);
  }, 60_000);

  test("events/ holds the contract only: it may not import the plan's rules (plan/)", async () => {
    const messages = await lint(
      "src/events/lint-fixture.ts",
      'import { checkPlanTasks } from "../plan/index.js";\nexport const used = checkPlanTasks;\n',
    );
    expect(messages.map((entry) => entry.message)).toEqual([
      expect.stringContaining("src/events/ may not import from src/plan/") as unknown as string,
    ]);
  }, 60_000);

  test("plan/ reads the plan's types from events/ and may not import the engine", async () => {
    const up = await lint(
      "src/plan/lint-fixture.ts",
      'import { runCoordination } from "../engine/index.js";\nexport const used = runCoordination;\n',
    );
    expect(up.map((entry) => entry.message)).toEqual([
      expect.stringContaining("src/plan/ may not import from src/engine/") as unknown as string,
    ]);
    const down = await lint(
      "src/plan/lint-fixture.ts",
      'import { PlanTask } from "../events/index.js";\nexport const used = PlanTask;\n',
    );
    expect(down).toEqual([]);
  }, 60_000);

  test("the one turn lives in runner/, below every door (the server's too): runner/ may not import commands/; the sessions registry it records in, it may", async () => {
    const up = await lint(
      "src/runner/lint-fixture.ts",
      'import { runQuestion } from "../commands/run.js";\nexport const used = runQuestion;\n',
    );
    expect(up.map((entry) => entry.message)).toEqual([
      expect.stringContaining("src/runner/ may not import from src/commands/") as unknown as string,
    ]);
    const down = await lint(
      "src/runner/lint-fixture.ts",
      'import { historyFromTurns } from "../sessions/index.js";\nexport const used = historyFromTurns;\n',
    );
    expect(down).toEqual([]);
  }, 60_000);
});
