import { expect, test } from "vitest";
import { parseConfigText } from "../config/load.js";
import {
  describeCwdContext,
  nextCwdContext,
  parseCwdContext,
  withCwdContext,
} from "./cwd-context.js";

test("--cwd-context values, the Ctrl+P cycle and the context path it sets", () => {
  expect(["ro", "read", "rw", "write"].map(parseCwdContext)).toEqual([
    "read",
    "read",
    "write",
    "write",
  ]);
  expect(parseCwdContext(undefined)).toBe("off");
  expect(nextCwdContext("off")).toBe("read");
  expect(nextCwdContext("read")).toBe("write");
  expect(nextCwdContext("write")).toBe("off");
  expect(describeCwdContext("write")).toBe("read-write");

  const { config } = parseConfigText(
    "agents:\n  - id: a\n    backend: { type: scripted }\norchestrator:\n  context_paths:\n    - { path: /data }\n",
    { env: {} },
  );
  expect(withCwdContext(config, "off", "/work")).toBe(config);
  const write = withCwdContext(withCwdContext(config, "read", "/work"), "write", "/work");
  expect(write.orchestrator.context_paths).toEqual([
    { path: "/data", permission: "read", protected_paths: [] },
    { path: "/work", permission: "write", protected_paths: [] },
  ]);
  expect(config.orchestrator.context_paths).toHaveLength(1);
});
