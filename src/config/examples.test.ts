import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import {
  configDescription,
  EXAMPLE_CATEGORIES,
  exampleCategory,
  examplesDir,
  listExamples,
  OTHER_EXAMPLES_LABEL,
  packageRoot,
  resolveConfigPath,
} from "./examples.js";

describe("resolveConfigPath", () => {
  it("resolves @examples/NAME with and without .yaml", () => {
    const expected = join(examplesDir(), "three_agents.yaml");
    expect(resolveConfigPath("@examples/three_agents", "/tmp")).toBe(expected);
    expect(resolveConfigPath("@examples/three_agents.yaml", "/tmp")).toBe(expected);
    expect(existsSync(expected)).toBe(true);
  });

  it("resolves other paths against the working directory", () => {
    expect(resolveConfigPath("team.yaml", "/work/p")).toBe("/work/p/team.yaml");
    expect(resolveConfigPath("/etc/team.yaml", "/work/p")).toBe("/etc/team.yaml");
  });

  it("lists the built-in examples when the name is unknown", () => {
    expect(() => resolveConfigPath("@examples/nope", "/tmp")).toThrow(ConfigError);
    expect(() => resolveConfigPath("@examples/nope", "/tmp")).toThrow(
      `unknown example "@examples/nope": built-in examples are ${listExamples()
        .map((name) => `@examples/${name}`)
        .join(", ")}`,
    );
  });
});

describe("packageRoot", () => {
  it("is the folder of coord's package.json", () => {
    expect(existsSync(join(packageRoot(), "package.json"))).toBe(true);
    expect(examplesDir()).toBe(join(packageRoot(), "examples"));
  });
});

describe("example categories", () => {
  it("puts every built-in example in a category, an unlisted one under the fallback", () => {
    const listed = EXAMPLE_CATEGORIES.flatMap((category) => category.examples);
    expect([...listed].sort()).toEqual(listExamples());
    expect(exampleCategory("three_agents")).toBe("getting started");
    expect(exampleCategory("not_listed")).toBe(OTHER_EXAMPLES_LABEL);
  });
});

describe("configDescription", () => {
  it("is the first sentence of the leading comment, over wrapped lines", () => {
    expect(
      configDescription("# One agent on OpenAI: the smallest.\n#\n# More.\nagents: []\n"),
    ).toBe("One agent on OpenAI: the smallest.");
    expect(
      configDescription("# Three agents on any server (vLLM,\n# Ollama, …). Edit it.\nagents:\n"),
    ).toBe("Three agents on any server (vLLM, Ollama, …).");
    expect(configDescription("# No full stop\nagents: []")).toBe("No full stop");
    expect(configDescription("agents: [] # late comment\n")).toBeUndefined();
  });

  it("describes every built-in example", () => {
    for (const name of listExamples()) {
      const text = readFileSync(join(examplesDir(), `${name}.yaml`), "utf8");
      expect(configDescription(text), name).toMatch(/^[A-Z].*[.:)]$/);
    }
  });
});
