/**
 * Issue 31 item 1: the tiny GGUF model ships in the repository and in the npm package, and
 * `coord --backend local` without `--model` runs it, so the README's first command works on a
 * fresh machine with nothing beside the clone.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, onlyAttemptDir, readLog, REPO_ROOT, runCli } from "./support/cli.js";

const SHIPPED = join(REPO_ROOT, "models", "stories260K.gguf");

describe("the shipped tiny model", () => {
  test("is the documented file (sha256 of models/README.md)", async () => {
    const digest = createHash("sha256")
      .update(await readFile(SHIPPED))
      .digest("hex");
    const readme = await readFile(join(REPO_ROOT, "models", "README.md"), "utf8");
    expect(digest).toBe("270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d");
    expect(readme).toContain(digest);
    expect(readme).toContain("MIT");
  });

  test("is in the npm package (npm pack --dry-run lists it)", () => {
    const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(packed.status).toBe(0);
    const [pack] = JSON.parse(packed.stdout) as { files: { path: string }[] }[];
    const paths = pack?.files.map((file) => file.path) ?? [];
    expect(paths).toContain("models/stories260K.gguf");
  });

  test("coord --backend local without --model runs it from any working directory", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--backend", "local", "--no-display", "What is 2+2?"], sandbox);
    expect(result.stderr).not.toContain("needs --model");
    expect(result.code).toBe(0);
    expect(result.stdout.trim().length).toBeGreaterThan(0);
    const { events } = parseEventLog(
      await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl"),
    );
    const usage = events.filter((event) => event.type === "usage");
    expect(usage.length).toBeGreaterThan(0);
    const metadata = await readLog(await onlyAttemptDir(sandbox.cwd), "execution_metadata.yaml");
    expect(metadata).toContain(SHIPPED);
  });
});
