/**
 * The README's set-up commands work as written on a fresh clone: every
 * `node dist/bin/coord.js …` command of its "Set-up" block runs, in order, through the built CLI in
 * an empty working directory with an empty HOME (no config, no key, no network): the first asks
 * the shipped model, the second continues that session with `--continue`. The block uses the short
 * flags and names the model's place in the repository, nothing outside it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";

/** The fenced block under `## Set-up`, and the prose after it up to the next heading. */
async function setUpSection(): Promise<{ block: string; prose: string }> {
  const readme = await readFile(join(REPO_ROOT, "README.md"), "utf8");
  const section = /^## Set-up\n([\s\S]*?)^#{2,3} /m.exec(readme)?.[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return { block, prose: section };
}

/** The arguments of each `node dist/bin/coord.js ARGS` in the block ("…" quoted words kept whole). */
function coordCommands(block: string): string[][] {
  const commands: string[][] = [];
  for (const line of block.split("\n")) {
    if (line.trimStart().startsWith("#")) continue;
    for (const part of line.split("&&")) {
      const match = /^\s*node dist\/bin\/coord\.js (.*)$/.exec(part);
      if (!match) continue;
      const words = match[1]!.match(/"[^"]*"|\S+/g) ?? [];
      commands.push(words.map((word) => word.replace(/^"(.*)"$/, "$1")));
    }
  }
  return commands;
}

describe("README set-up", () => {
  test("names the shipped model in the repository and uses the short flags and --continue", async () => {
    const { block, prose } = await setUpSection();
    expect(prose).toContain("models/stories260K.gguf");
    expect(prose).not.toContain("../shared");
    const commands = coordCommands(block);
    expect(commands).toHaveLength(2);
    expect(commands[0]).toEqual(expect.arrayContaining(["-b", "local", "-q"]));
    expect(commands[1]).toContain("--continue");
  });

  test("its coord commands run as written on a fresh directory and HOME", async () => {
    const { block } = await setUpSection();
    const box = await makeSandbox();
    for (const args of coordCommands(block)) {
      const result = await runCli(args, box);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      expect(result.stdout.trim()).not.toBe("");
    }
    // The second command continued the first one's session.
    const sessions = JSON.parse((await runCli(["--list-sessions", "--json"], box)).stdout) as {
      turns: number;
    }[];
    expect(sessions).toEqual([expect.objectContaining({ turns: 2 })]);
  });
});
