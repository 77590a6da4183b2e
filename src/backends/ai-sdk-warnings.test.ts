import { describe, expect, it } from "vitest";
import { describeWarning } from "./ai-sdk-warnings.js";

describe("describeWarning", () => {
  it("describes the SDK's warning kinds", () => {
    expect(
      describeWarning({
        type: "unsupported",
        feature: "temperature",
        details: "temperature is not supported when thinking is enabled",
      }),
    ).toBe(
      "temperature is not supported and was ignored (temperature is not supported when thinking is enabled)",
    );
    expect(describeWarning({ type: "other", message: "m" })).toBe("m");
    expect(describeWarning({ type: "compatibility", feature: "f" })).toBe(
      "f is used in a compatibility mode",
    );
    expect(describeWarning("x")).toBe("x");
  });
});
