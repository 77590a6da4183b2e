import { describe, expect, it } from "vitest";
import { describeWarning, silenceSdkWarningLog } from "./ai-sdk-warnings.js";

describe("silenceSdkWarningLog", () => {
  it("turns the SDK's own printing off, but keeps a logger the embedding program set", () => {
    const holder = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    const previous = holder.AI_SDK_LOG_WARNINGS;
    try {
      delete holder.AI_SDK_LOG_WARNINGS;
      silenceSdkWarningLog();
      expect(holder.AI_SDK_LOG_WARNINGS).toBe(false);
      const theirs = () => undefined;
      holder.AI_SDK_LOG_WARNINGS = theirs;
      silenceSdkWarningLog();
      expect(holder.AI_SDK_LOG_WARNINGS).toBe(theirs);
    } finally {
      holder.AI_SDK_LOG_WARNINGS = previous;
    }
  });

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
