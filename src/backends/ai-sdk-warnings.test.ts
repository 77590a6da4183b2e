import { describe, expect, it } from "vitest";
import { describeWarning, routeSdkWarnings } from "./ai-sdk-warnings.js";

describe("routeSdkWarnings", () => {
  it("writes each distinct SDK warning once, in coord's style, not to stdout", () => {
    const holder = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    const previous = holder.AI_SDK_LOG_WARNINGS;
    delete holder.AI_SDK_LOG_WARNINGS;
    try {
      const lines: string[] = [];
      routeSdkWarnings((line) => lines.push(line));
      const logger = holder.AI_SDK_LOG_WARNINGS as (options: unknown) => void;
      const batch = {
        provider: "anthropic.messages",
        model: "claude-sonnet-4-5",
        warnings: [
          {
            type: "unsupported",
            feature: "temperature",
            details: "temperature is not supported when thinking is enabled",
          },
        ],
      };
      logger(batch);
      logger(batch);
      expect(lines).toEqual([
        "coord: warning: anthropic.messages/claude-sonnet-4-5: temperature is not supported and was ignored (temperature is not supported when thinking is enabled)",
      ]);
      // Installed once: a second call keeps the first logger.
      routeSdkWarnings(() => lines.push("other"));
      expect(holder.AI_SDK_LOG_WARNINGS).toBe(logger);
    } finally {
      holder.AI_SDK_LOG_WARNINGS = previous;
    }
  });

  it("describes the SDK's warning kinds", () => {
    expect(describeWarning({ type: "other", message: "m" })).toBe("m");
    expect(describeWarning({ type: "compatibility", feature: "f" })).toBe(
      "f is used in a compatibility mode",
    );
    expect(describeWarning("x")).toBe("x");
  });
});
