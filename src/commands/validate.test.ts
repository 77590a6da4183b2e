import { describe, expect, it } from "vitest";
import { problemFindings } from "./validate.js";

describe("problemFindings", () => {
  it("splits a loader error into findings with file, line, column and key", () => {
    const file = "/p/my team: v2.yaml";
    const message = [
      `${file}:4:13: agents[0].backend.type: received "openia": did you mean "openai"? (one of 23 values, listed in docs/config.md)`,
      `${file}:9:3: agents[1].backend.extra_body["a.b: c"]: expected object, received string`,
      `${file}:2:1: invalid YAML: Map keys must be unique`,
      `${file}: the config is empty: add an \`agents:\` list`,
      "… and 2 more problems",
    ].join("\n");
    expect(problemFindings(message, file)).toEqual([
      expect.objectContaining({ file, line: 4, column: 13, key: "agents[0].backend.type" }),
      expect.objectContaining({
        file,
        line: 9,
        column: 3,
        key: 'agents[1].backend.extra_body["a.b: c"]',
      }),
      { message: `${file}:2:1: invalid YAML: Map keys must be unique`, file, line: 2, column: 1 },
      { message: `${file}: the config is empty: add an \`agents:\` list`, file },
      { message: "… and 2 more problems" },
    ]);
  });
});
