import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";
import { renderConfigJsonSchema, renderConfigReference } from "./docs.js";
import { packageRoot } from "./examples.js";

// CONTRIBUTING.md rule 13: the committed reference and JSON Schema must match the schema. When this
// fails after a schema change, regenerate with `npx vitest run src/config/docs.test.ts -u`.
describe("generated config docs", () => {
  it("docs/config.md matches the schema", async () => {
    await expect(renderConfigReference()).toMatchFileSnapshot(
      join(packageRoot(), "docs", "config.md"),
    );
  });

  it("config.schema.json matches the schema", async () => {
    const file = join(packageRoot(), "config.schema.json");
    const options = (await resolveConfig(file)) ?? {};
    const text = await format(renderConfigJsonSchema(), { ...options, filepath: file });
    await expect(text).toMatchFileSnapshot(file);
  });
});
