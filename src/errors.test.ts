import { expect, test } from "vitest";
import { EXIT_CODE_FOR_RUN_END, ExitCode } from "./errors.js";
import { RunEndReason } from "./events/index.js";

test("every run-end reason has its exit code, and only the reasons do", () => {
  // Typed: a reason missing from the table would make this index fail to compile.
  const codes = RunEndReason.options.map((reason) => [reason, EXIT_CODE_FOR_RUN_END[reason]]);
  expect(Object.fromEntries(codes)).toEqual({
    completed: ExitCode.success,
    failed: ExitCode.execution,
    timeout: ExitCode.timeout,
    interrupted: ExitCode.interrupted,
    shutdown: ExitCode.interrupted,
  });
  expect(Object.keys(EXIT_CODE_FOR_RUN_END).sort()).toEqual([...RunEndReason.options].sort());
});
