/**
 * Docs come from code and fail when they drift (CONTRIBUTING.md rule 13): docs/cli.md from the
 * built CLI's `--help` and its sub-commands' (serve, logs, eval), docs/events.md from the event
 * schema. Run with UPDATE_DOCS=1 to rewrite them.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { renderEventReference } from "../src/events/docs.js";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";

async function expectDoc(file: string, expected: string): Promise<void> {
  const path = join(REPO_ROOT, file);
  if (process.env.UPDATE_DOCS === "1") await writeFile(path, expected);
  const actual = await readFile(path, "utf8").catch(() => "");
  expect(actual, `${file} is out of date: run UPDATE_DOCS=1 npx vitest run test/docs.test.ts`).toBe(
    expected,
  );
}

test("docs/cli.md is the --help of coord and of its sub-commands", async () => {
  const sandbox = await makeSandbox();
  const sections: string[] = [];
  for (const command of [
    [],
    ["serve"],
    ["logs"],
    ["eval"],
    ["viewer"],
    ["export"],
    ["shares", "list"],
    ["shares", "delete"],
  ]) {
    const help = await runCli([...command, "--help"], sandbox);
    expect(help.code, command.join(" ")).toBe(0);
    if (command.length > 0) sections.push(`## coord ${command.join(" ")}`, "");
    sections.push("```text", help.stdout.trimEnd(), "```", "");
  }
  const text = [
    "# Command-line reference",
    "",
    "<!-- Generated from `coord --help` and each sub-command's `--help` by test/docs.test.ts (UPDATE_DOCS=1 to rewrite). -->",
    "",
    ...sections,
  ].join("\n");
  await expectDoc("docs/cli.md", text);
});

test("docs/events.md is the event schema", async () => {
  await expectDoc("docs/events.md", renderEventReference() + "\n");
});
