import { defineConfig } from "vitest/config";

// COORD_TEST_RESULTS (set by .ci/run) also writes a JSON report there, from which CI prints
// its `N passed, N failed` line.
const resultsFile = process.env.COORD_TEST_RESULTS;

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.{ts,tsx}"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: resultsFile ? ["default", "json"] : ["default"],
    ...(resultsFile ? { outputFile: { json: resultsFile } } : {}),
  },
});
