/**
 * `coord eval` as a user runs it: the built CLI against simulated agents behind the fake OpenAI
 * server (test/support/eval-sim.ts). An eval killed mid-way resumes without running any item
 * twice; without a terminal it refuses to start unless --yes; the judge scorer grades through a
 * model, and another scorer re-reports the same results without a model call.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { EvalReport } from "../src/eval/index.js";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  simulatedAgents,
  simulatedDataset,
  simulatedJudgeConfig,
  simulatedTeamConfig,
} from "./support/eval-sim.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RunLine {
  type: string;
  item: string;
  run: string;
  status: string;
}

async function runLines(path: string): Promise<RunLine[]> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as RunLine];
      } catch {
        return []; // a line cut off by the kill
      }
    })
    .filter((line) => line.type === "run");
}

async function setUp(options: { items: number; delayMs?: number; priced?: boolean }) {
  const sim = simulatedAgents({
    p: 0.7,
    seed: 5,
    ...(options.delayMs ? { delayMs: options.delayMs } : {}),
  });
  server = await startFakeOpenAIServer(sim.handler);
  const sandbox = await makeSandbox();
  await writeFile(join(sandbox.cwd, "data.jsonl"), simulatedDataset(options.items));
  await writeFile(
    join(sandbox.cwd, "team.yaml"),
    simulatedTeamConfig(
      server.url,
      3,
      options.priced ? { type: "openai", model: "gpt-4o-mini" } : {},
    ),
  );
  return { sim, sandbox, server };
}

describe("coord eval (the built CLI)", () => {
  test("killed mid-way, the same command resumes: no item runs twice, the report covers all", async () => {
    const { sandbox, server } = await setUp({ items: 4, delayMs: 40, priced: true });
    const args = ["eval", "data.jsonl", "--config", "team.yaml", "--yes", "--out", "ev"];
    const results = join(sandbox.cwd, "ev", "results.jsonl");

    const first = await runCli(args, {
      ...sandbox,
      timeoutMs: 120_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          void runLines(results).then((lines) => {
            if (lines.length >= 5) {
              clearInterval(poll);
              child.kill("SIGKILL");
            }
          });
        }, 50);
        child.on("close", () => clearInterval(poll));
      },
    });
    expect(first.code).toBeNull(); // killed
    const before = await runLines(results);
    expect(before.length).toBeGreaterThanOrEqual(5);
    expect(before.length).toBeLessThan(4 * 4 + 4 * 6); // not finished
    const requestsBefore = server.requests.length;

    const second = await runCli([...args, "--json"], { ...sandbox, timeoutMs: 120_000 });
    expect(second.stderr).toContain(`${before.length} runs already in`);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout) as EvalReport;

    const after = await runLines(results);
    const keys = after.map((line) => `${line.run} ${line.item}`);
    expect(new Set(keys).size).toBe(keys.length); // nothing ran twice
    expect(after.slice(0, before.length)).toEqual(before); // the first run's lines kept as they were
    expect(after.every((line) => line.status === "completed")).toBe(true);
    // 4 items × (team + 3 agents alone) + 4 × (samples − 1) self-consistency samples (k = 7 on
    // calls, more when matched on the team's tokens).
    const samples = Math.max(7, report.self_consistency.k_tokens ?? 0);
    expect(after).toHaveLength(4 * 4 + 4 * (samples - 1));
    expect(report.items_reported).toBe(4);
    expect(report.self_consistency.k).toBe(7);
    for (const method of report.methods) expect(method.n).toBe(4);
    // The second invocation made only the calls of the runs left (the one cut off included).
    const remaining = after.length - before.length;
    expect(server.requests.length - requestsBefore).toBeLessThanOrEqual(7 * 4 + remaining);
    // Priced model: a cost per item; run logs referenced and on disk.
    expect(report.methods[0]!.cost_usd_per_item).toBeGreaterThan(0);
    const teamLog = report.items[0]!.methods.team!.log_dirs[0]!;
    await expect(
      readFile(join(sandbox.cwd, "ev", teamLog, "events.jsonl"), "utf8"),
    ).resolves.toContain('"type":"run-end"');
  }, 240_000);

  test("SIGTERM stops it cleanly (exit 4, the runs in flight dropped); the same command finishes it", async () => {
    const { sandbox } = await setUp({ items: 3, delayMs: 40 });
    const args = ["eval", "data.jsonl", "--config", "team.yaml", "--yes", "--out", "ev"];
    const results = join(sandbox.cwd, "ev", "results.jsonl");
    let signalled = false;
    const first = await runCli(args, {
      ...sandbox,
      timeoutMs: 120_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          void runLines(results).then((lines) => {
            if (lines.length >= 2 && !signalled) {
              signalled = true;
              clearInterval(poll);
              child.kill("SIGTERM");
            }
          });
        }, 50);
        child.on("close", () => clearInterval(poll));
      },
    });
    expect(first.code, first.stderr).toBe(4);
    expect(first.stderr).toContain("[eval] SIGTERM: stopping");
    expect(first.stderr).toContain("[eval] interrupted; the finished runs are in");
    const before = await runLines(results);
    // Only finished runs are recorded: a run stopped by the signal is not.
    expect(before.every((line) => line.status === "completed")).toBe(true);

    const second = await runCli(args, { ...sandbox, timeoutMs: 120_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("team (voting)");
    const after = await runLines(results);
    const keys = after.map((line) => `${line.run} ${line.item}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(after.slice(0, before.length)).toEqual(before);
  }, 240_000);

  test("without a terminal and without --yes it shows the estimate and refuses to start", async () => {
    const { sandbox, server } = await setUp({ items: 2, priced: true });
    const result = await runCli(["eval", "data.jsonl", "--config", "team.yaml"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[eval\] estimate: 20 runs, ≈32 model calls, .* ≈\$0\.\d+/);
    expect(result.stderr).toContain(
      "coord: confirm the estimate above with --yes (stdin is not a terminal",
    );
    expect(server.requests).toHaveLength(0);
  });

  test("the judge grades answers; another scorer re-reports the same results without a model call", async () => {
    const { sandbox, server, sim } = await setUp({ items: 3 });
    await writeFile(join(sandbox.cwd, "judge.yaml"), simulatedJudgeConfig(server.url));
    const common = [
      "eval",
      "data.jsonl",
      "--config",
      "team.yaml",
      "--yes",
      "--out",
      "ev",
      "--json",
      "--sc-k",
      "3",
    ];
    const judged = await runCli([...common, "--scorer", "judge", "--judge-config", "judge.yaml"], {
      ...sandbox,
      timeoutMs: 120_000,
    });
    expect(judged.code, judged.stderr).toBe(0);
    const byJudge = JSON.parse(judged.stdout) as EvalReport;
    expect(byJudge.scorer.name).toBe("judge");
    expect(byJudge.self_consistency).toMatchObject({ k: 3, k_source: "flag" });
    expect(sim.calls.judge).toBeGreaterThan(0);
    expect(byJudge.judge).toMatchObject({ calls: sim.calls.judge, unclear: 0, failed: 0 });

    const requests = server.requests.length;
    // Every answer judged: judging again is nothing to confirm, even without --yes.
    const again = await runCli(
      [
        ...common.filter((arg) => arg !== "--yes"),
        "--scorer",
        "judge",
        "--judge-config",
        "judge.yaml",
      ],
      sandbox,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("[eval] estimate");
    expect(server.requests).toHaveLength(requests);
    expect((JSON.parse(again.stdout) as EvalReport).methods).toEqual(byJudge.methods);

    const numeric = await runCli([...common, "--scorer", "gsm8k"], sandbox);
    expect(numeric.code, numeric.stderr).toBe(0);
    expect(server.requests).toHaveLength(requests); // nothing ran again
    expect(numeric.stderr).not.toContain("[eval] estimate");
    const byNumber = JSON.parse(numeric.stdout) as EvalReport;
    // The simulated judge compares numbers, so both scorers agree item by item.
    expect(byNumber.methods.map((method) => [method.id, method.correct])).toEqual(
      byJudge.methods.map((method) => [method.id, method.correct]),
    );
  }, 240_000);

  test("a decomposition team is evaluated in its own mode; --with-quick is refused for it", async () => {
    server = await startFakeOpenAIServer(
      coordinationHandler({ answer: "The answer is 6.", finalAnswer: "Final answer: 6" }),
    );
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "data.jsonl"), simulatedDataset(2)); // item 2's answer is 6
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `${simulatedTeamConfig(server.url, 2)}orchestrator: { coordination_mode: decomposition }\n`,
    );
    const args = ["eval", "data.jsonl", "--config", "team.yaml", "--yes"];
    const result = await runCli([...args, "--json"], { ...sandbox, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvalReport;
    expect(report.config.mode).toBe("decomposition");
    const team = report.methods[0]!;
    expect(team).toMatchObject({ id: "team", label: "team (decomposition)", n: 2, correct: 1 });
    expect(report.self_consistency.k).toBe(Math.round(team.calls_per_item));
    const teamLog = report.items[0]!.methods.team!.log_dirs[0]!;
    const events = await readFile(join(report.eval_dir, teamLog, "events.jsonl"), "utf8");
    expect(events).toContain('"type":"stop"');

    const quick = await runCli([...args, "--with-quick"], sandbox);
    expect(quick.code).toBe(1);
    expect(quick.stderr).toContain("--with-quick does not go with coordination_mode decomposition");
  }, 240_000);

  test("usage errors are one line with the fix", async () => {
    const { sandbox } = await setUp({ items: 2 });
    const cases: Array<[string[], RegExp]> = [
      [["--limit", "1", "--sample", "1"], /use --limit N .* or --sample N .*, not both/],
      [["--seed", "3"], /--seed goes with --sample N/],
      [
        ["--baseline-agent", "nobody"],
        /--baseline-agent nobody: no agent with that id; the config's agents are: sim-1, sim-2, sim-3/,
      ],
      [["--scorer", "judge"], /--scorer judge needs --judge-config PATH/],
      [["--answer-field", "target"], /data\.jsonl:1: no text at field "target"/],
    ];
    for (const [extra, message] of cases) {
      const result = await runCli(
        ["eval", "data.jsonl", "--config", "team.yaml", "--yes", ...extra],
        sandbox,
      );
      expect(result.code, extra.join(" ")).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    const noConfig = await runCli(["eval", "data.jsonl", "--yes"], sandbox);
    expect(noConfig.stderr).toContain("coord eval needs the team: --config PATH");
  });
});
