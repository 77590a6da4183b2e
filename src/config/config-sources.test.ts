import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeAgents, listConfigSources, userConfigsDir } from "./config-sources.js";
import { EXAMPLE_CATEGORIES, examplesDir } from "./examples.js";

const TEAM = `# My two-agent team. More words.
agents:
  - id: a
    backend: { type: openai, model: gpt-4o-mini }
  - id: b
    backend: { type: claude, model: claude-haiku-4-5 }
`;

describe("listConfigSources", () => {
  let root: string;
  let cwd: string;
  let home: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "coord-sources-"));
    cwd = join(root, "project");
    home = join(root, "home");
    await mkdir(join(cwd, ".coord"), { recursive: true });
    await mkdir(userConfigsDir(home), { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("lists the four sources by category, with agents, models and descriptions", async () => {
    await writeFile(join(userConfigsDir(home), "mine.yaml"), TEAM);
    await writeFile(join(cwd, ".coord", "config.yaml"), TEAM);
    await writeFile(join(cwd, "here.yaml"), "agents:\n  - backend: { type: scripted }\n");
    await writeFile(join(cwd, "compose.yaml"), "services:\n  web: {}\n");
    await writeFile(join(cwd, "notes.txt"), "agents: []\n");

    const categories = await listConfigSources({ cwd, home, env: {} });
    expect(categories.map((category) => category.label)).toEqual([
      "Your configs",
      "This project",
      "This directory",
      ...EXAMPLE_CATEGORIES.map((category) => `Examples: ${category.label}`),
    ]);
    const [user, project, directory, basics] = categories;
    expect(user!.entries).toEqual([
      {
        kind: "user",
        name: "mine",
        path: join(userConfigsDir(home), "mine.yaml"),
        configArg: join(userConfigsDir(home), "mine.yaml"),
        description: "My two-agent team.",
        agents: [
          { id: "a", type: "openai", model: "gpt-4o-mini" },
          { id: "b", type: "claude", model: "claude-haiku-4-5" },
        ],
        error: undefined,
      },
    ]);
    expect(project!.entries.map((entry) => entry.name)).toEqual(["config"]);
    // compose.yaml has no agents: not a coord config; notes.txt is not YAML by name.
    expect(directory!.entries.map((entry) => [entry.name, entry.agents])).toEqual([
      ["here", [{ id: "agent_a", type: "scripted", model: "scripted" }]],
    ]);
    expect(basics!.entries.map((entry) => entry.configArg)).toEqual(
      EXAMPLE_CATEGORIES[0]!.examples.map((name) => `@examples/${name}`),
    );
    expect(basics!.entries[0]!.path).toBe(
      join(examplesDir(), `${EXAMPLE_CATEGORIES[0]!.examples[0]}.yaml`),
    );
  });

  it("keeps an invalid config, with the first line of why, and leaves out empty sources", async () => {
    await writeFile(
      join(cwd, ".coord", "broken.yaml"),
      "agents:\n  - backend: { type: nope, model: x }\n",
    );
    await writeFile(
      join(cwd, ".coord", "needs-var.yaml"),
      "agents:\n  - backend:\n      type: openai\n      model: ${MY_MODEL}\n",
    );
    const categories = await listConfigSources({ cwd, home, env: {} });
    expect(categories.map((category) => category.label)).not.toContain("Your configs");
    expect(categories.map((category) => category.label)).not.toContain("This directory");
    const project = categories.find((category) => category.label === "This project")!;
    expect(project.entries.map((entry) => [entry.name, entry.error?.split(":")[0]])).toEqual([
      ["broken", "broken.yaml"],
      ["needs-var", "needs-var.yaml"],
    ]);
    expect(project.entries[0]!.error).toContain("agents[0].backend.type");
    expect(project.entries[1]!.error).toContain("MY_MODEL");
    expect(project.entries.every((entry) => !entry.error!.includes("\n"))).toBe(true);

    const withVar = await listConfigSources({ cwd, home, env: { MY_MODEL: "gpt-4.1" } });
    const expanded = withVar.find((category) => category.label === "This project")!.entries[1]!;
    expect(expanded).toMatchObject({ error: undefined, agents: [{ model: "gpt-4.1" }] });
  });
});

describe("describeAgents", () => {
  it("counts repeats and shortens model file paths", () => {
    expect(
      describeAgents([
        { id: "a", type: "local", model: "/models/tiny.gguf" },
        { id: "b", type: "local", model: "/models/tiny.gguf" },
        { id: "c", type: "openai", model: "gpt-4o-mini" },
        { id: "d", type: "scripted", model: "scripted" },
        { id: "e", type: "scripted", model: undefined },
      ]),
    ).toBe("5 agents: local tiny.gguf ×2, openai gpt-4o-mini, scripted ×2");
    expect(describeAgents([{ id: "a", type: "openai", model: "gpt-4o" }])).toBe(
      "1 agent: openai gpt-4o",
    );
  });
});
