/**
 * `agents[].backend.pricing` in a config: read as written, a half-set price refused with the
 * key named, unknown keys inside it warned about, and a warning on `scripted` (which costs 0 by
 * definition and reads no price).
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { parseConfigText } from "./load.js";

const team = (pricing: string, type = "openai") =>
  `agents:\n  - id: a\n    backend:\n      type: ${type}\n      model: gpt-4.1-mini\n      pricing: ${pricing}\n`;

describe("backend.pricing", () => {
  it("is read with its prices in USD per million tokens and the context window", () => {
    const parsed = parseConfigText(
      team(
        "{ input_per_mtok: 0.5, output_per_mtok: 2, cached_input_per_mtok: 0.05, context_window: 65536 }",
      ),
      { env: {} },
    );
    expect(parsed.warnings).toEqual([]);
    expect(parsed.config.agents[0]!.backend.pricing).toEqual({
      input_per_mtok: 0.5,
      output_per_mtok: 2,
      cached_input_per_mtok: 0.05,
      context_window: 65536,
    });
    const windowOnly = parseConfigText(team("{ context_window: 8192 }"), { env: {} });
    expect(windowOnly.config.agents[0]!.backend.pricing).toEqual({ context_window: 8192 });
  });

  it("refuses one price without the other, and a negative price", () => {
    const half = (() => {
      try {
        parseConfigText(team("{ input_per_mtok: 1 }"), { source: "c.yaml", env: {} });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(half).toBeInstanceOf(ConfigError);
    expect((half as Error).message).toContain("agents[0].backend.pricing");
    expect((half as Error).message).toContain("set both input_per_mtok and output_per_mtok");
    expect(() =>
      parseConfigText(team("{ input_per_mtok: -1, output_per_mtok: 1 }"), { env: {} }),
    ).toThrow(/input_per_mtok/);
  });

  it("warns about a mistyped key inside it, and about pricing on a scripted agent", () => {
    const typo = parseConfigText(
      team("{ input_per_mtok: 1, output_per_mtok: 2, contxt_window: 9 }"),
      {
        env: {},
      },
    );
    expect(typo.warnings.map((warning) => warning.path)).toEqual([
      "agents[0].backend.pricing.contxt_window",
    ]);
    const scripted = parseConfigText(team("{ context_window: 9 }", "scripted"), { env: {} });
    expect(scripted.warnings.map((warning) => [warning.path, warning.kind])).toEqual([
      ["agents[0].backend.pricing", "unread"],
    ]);
  });
});
