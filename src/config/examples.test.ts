import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { examplesDir, listExamples, packageRoot, resolveConfigPath } from "./examples.js";

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
