/**
 * `coord eval` end to end on real inference: two agents on
 * models/stories260K.gguf (shipped) (threads: 1) over the first two items of the real GSM8K test
 * split. The model writes children's stories, so accuracy is near 0; what is checked is the
 * plumbing: every method ran on every item, self-consistency's k is matched to the team's
 * measured calls, the spend comes from the runs' usage, the logs are on disk, and both the
 * JSON and the text report are well formed. Sampling is not seeded, so the number of calls a
 * run takes (a retry after a malformed tool call) and whether it completes are not asserted.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { EvalReport } from "../src/eval/index.js";
import { makeSandbox, REPO_ROOT, runCli, TINY_MODEL } from "./support/cli.js";

const GSM8K = join(REPO_ROOT, "../shared/data/gsm8k/test.jsonl");

const agent = (id: string, temperature: number) =>
  `  - id: ${id}\n    backend: { type: local, model: ${JSON.stringify(TINY_MODEL)}, threads: 1, context_size: 1024, max_tokens: 48, temperature: ${temperature} }\n`;

describe("coord eval on the local GGUF model", () => {
  test("two items of GSM8K: a well-formed report with every method, k matched to the team's calls", async () => {
    const sandbox = await makeSandbox();
    const lines = (await readFile(GSM8K, "utf8")).split("\n").slice(0, 2).join("\n");
    await writeFile(join(sandbox.cwd, "gsm8k-2.jsonl"), `${lines}\n`);
    await writeFile(
      join(sandbox.cwd, "tiny.yaml"),
      `agents:\n${agent("tiny_a", 0.7)}${agent("tiny_b", 1.0)}orchestrator:\n  max_new_answers_per_agent: 1\n`,
    );
    const args = ["eval", "gsm8k-2.jsonl", "--config", "tiny.yaml", "--yes", "--out", "ev"];
    const json = await runCli([...args, "--json"], { ...sandbox, timeoutMs: 400_000 });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as EvalReport;

    expect(report.items_reported).toBe(2);
    expect(report.scorer.name).toBe("gsm8k");
    expect(report.methods.map((method) => method.id)).toEqual([
      "team",
      `agent:${report.self_consistency.agent}`,
      ...report.methods.map((method) => method.id).filter((id) => id.startsWith("self-")),
      "best-agent-oracle",
      `agent:${report.self_consistency.agent === "tiny_a" ? "tiny_b" : "tiny_a"}`,
    ]);
    const team = report.methods[0]!;
    expect(team.calls_per_item).toBeGreaterThan(0);
    expect(report.self_consistency).toMatchObject({
      k: Math.round(team.calls_per_item),
      k_source: "matched",
      team_calls_per_item: team.calls_per_item,
    });
    const sc = report.methods.find((method) => method.id === "self-consistency")!;
    // k samples of at least one call each (the tiny model sometimes needs a second try).
    expect(sc.calls_per_item).toBeGreaterThanOrEqual(report.self_consistency.k);
    for (const method of report.methods) {
      expect(method.n).toBe(2);
      expect(method.correct).toBeLessThanOrEqual(method.n);
      expect(method.ci95.low).toBeLessThanOrEqual(method.ci95.high);
      expect(method.input_tokens_per_item).toBeGreaterThan(0);
      expect(method.output_tokens_per_item).toBeGreaterThan(0);
      expect(method.cost_usd_per_item).toBe(0); // a local model costs nothing
    }
    for (const item of report.items) {
      expect(item.reference).toMatch(/^\d+$/);
      for (const dir of item.methods.team!.log_dirs)
        await expect(
          readFile(join(sandbox.cwd, "ev", dir, "events.jsonl"), "utf8"),
        ).resolves.toContain('"type":"run-end"');
    }

    // The same command as text: re-reported from results.jsonl, nothing runs again.
    const text = await runCli(args, { ...sandbox, timeoutMs: 60_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).not.toContain("[eval] estimate");
    expect(text.stdout).toContain("team (voting)");
    expect(text.stdout).toContain(
      `self-consistency, ${report.self_consistency.agent} ×${report.self_consistency.k}`,
    );
    expect(text.stdout).toMatch(/coverage: \d\/2 items/);
  }, 600_000);
});
