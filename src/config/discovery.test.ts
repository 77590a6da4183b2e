import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverConfig, globalConfigPath, noConfigMessage } from "./discovery.js";
import { examplesDir } from "./examples.js";

describe("discoverConfig", () => {
  let root: string;
  let cwd: string;
  let home: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "coord-discovery-"));
    cwd = join(root, "project");
    home = join(root, "home");
    await mkdir(cwd);
    await mkdir(home);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const write = async (path: string) => {
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, "agents: []\n");
  };

  it("finds nothing when neither config exists", async () => {
    expect(await discoverConfig({ cwd, home })).toBeUndefined();
  });

  it("falls back to ~/.config/coord/config.yaml", async () => {
    await write(globalConfigPath(home));
    expect(await discoverConfig({ cwd, home })).toBe(join(home, ".config", "coord", "config.yaml"));
  });

  it("prefers .coord/config.yaml in the working directory", async () => {
    await write(globalConfigPath(home));
    await write(join(cwd, ".coord", "config.yaml"));
    expect(await discoverConfig({ cwd, home })).toBe(join(cwd, ".coord", "config.yaml"));
  });

  it("ignores a directory where the file should be", async () => {
    await mkdir(join(cwd, ".coord", "config.yaml"), { recursive: true });
    expect(await discoverConfig({ cwd, home })).toBeUndefined();
  });
});

describe("noConfigMessage", () => {
  it("says where coord looked and how to create a config or run without one", () => {
    const message = noConfigMessage();
    expect(message).toContain(".coord/config.yaml");
    expect(message).toContain("~/.config/coord/config.yaml");
    expect(message).toContain(
      `mkdir -p .coord && cp ${join(examplesDir(), "three_agents.yaml")} .coord/config.yaml`,
    );
    expect(message).toContain('coord --config @examples/three_agents "your question"');
    expect(message).toContain('coord --backend local --model ./model.gguf "your question"');
    expect(message).toContain("In a terminal, `coord --setup` asks for your API keys");
  });
});
