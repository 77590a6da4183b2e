/**
 * End-to-end tests of `coord logs analyze --mode self` with a scripted analysis team, of
 * `coord logs open`, and of logs the reader cannot take (another schema version). Each test
 * works on a copy of a fixture log directory (test/fixtures/logs/runs), since these write.
 */
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";
import { startOtlpReceiver } from "./support/otlp-receiver.js";

const RUNS = join(REPO_ROOT, "test", "fixtures", "logs", "runs");
const THREE = "log_20261121_095544_three_agents";
const ERRORS = "log_20261121_095546_errors";

/** A sandbox whose agent_outputs/ holds copies of the named fixture runs. */
async function sandboxWithRuns(...names: string[]) {
  const sandbox = await makeSandbox();
  for (const name of names) {
    await cp(join(RUNS, name), join(sandbox.cwd, "agent_outputs", name), { recursive: true });
  }
  return sandbox;
}

const REPORT = `## Verdict
carol's revised answer won 2 of 2 votes after bob was removed for two 503 errors.

## Cost and time
8 model calls; cost unknown.`;

/** Two scripted analysts; the first checks that the question quotes the log. */
const ANALYSTS = `
agents:
  - id: analyst
    backend:
      type: scripted
      steps:
        - answer: "bob was removed after two 503s; one refused vote."
          expect_prompt_contains:
            - "How do I remove duplicates from a list quickly?"
            - "## metrics.json"
            - "## status.json"
            - "## execution_metadata.yaml"
            - "[orchestrator] bob error 503: upstream overloaded (removed from the team)"
            - "Refused votes"
        - vote: agent1
          reason: "Has the evidence."
        - text: ${JSON.stringify(REPORT)}
  - id: reviewer
    backend:
      type: scripted
      steps:
        - answer: "Looks fine."
        - vote: agent1
          reason: "More specific."
`;

describe("coord logs analyze --mode self", () => {
  test("a scripted analysis team writes ANALYSIS_REPORT.md; the run is then listed as analyzed", async () => {
    const sandbox = await sandboxWithRuns(THREE, ERRORS);
    await writeFile(join(sandbox.cwd, "analysts.yaml"), ANALYSTS);
    const result = await runCli(
      ["logs", "analyze", "--mode", "self", "--config", "analysts.yaml", "--ui", "rich_terminal"],
      sandbox,
    );
    expect(result.stderr).toContain(
      `[system] Analysing agent_outputs/${ERRORS}/turn_1/attempt_1 with analysts.yaml (analyst, reviewer)`,
    );
    expect(result.stderr).toContain("[orchestrator] Winner: analyst (agent1.1; 2 votes)");
    expect(result.stderr).toContain(
      `[system] Analysis report: agent_outputs/${ERRORS}/ANALYSIS_REPORT.md`,
    );
    expect(result.stdout).toBe(`${REPORT}\n`);
    expect(result.code).toBe(0);

    const report = await readFile(
      join(sandbox.cwd, "agent_outputs", ERRORS, "ANALYSIS_REPORT.md"),
      "utf8",
    );
    expect(report).toMatch(
      /^<!-- Written by `coord logs analyze --mode self` for turn 1, attempt 1 of this log directory, by the analysis team analysts\.yaml \(analyst, reviewer\)\. The team was read-only: .* The analysis run's log: .*analysis_logs\/log_\d{8}_\d{6}\/turn_1\/attempt_1\. -->\n\n/,
    );
    expect(report.endsWith(`${REPORT}\n`)).toBe(true);

    // The analysis run is logged inside the analysed directory, not as the newest run.
    const list = await runCli(["logs", "list", "--json"], sandbox);
    const runs = (JSON.parse(list.stdout) as { runs: { name: string; analyzed: boolean }[] }).runs;
    expect(runs.map((run) => [run.name, run.analyzed])).toEqual([
      [ERRORS, true],
      [THREE, false],
    ]);
    const analyzed = await runCli(["logs", "list", "--analyzed"], sandbox);
    expect(analyzed.stdout).toContain(ERRORS);
    expect(analyzed.stdout).not.toContain(THREE);
  });

  test("--json reports where the report went", async () => {
    const sandbox = await sandboxWithRuns(ERRORS);
    await writeFile(join(sandbox.cwd, "analysts.yaml"), ANALYSTS);
    const result = await runCli(
      ["logs", "analyze", "--mode", "self", "--config", "analysts.yaml", "--json"],
      sandbox,
    );
    expect(result.code).toBe(0);
    const logDir = join(sandbox.cwd, "agent_outputs", ERRORS);
    expect(JSON.parse(result.stdout)).toMatchObject({
      version: 1,
      mode: "self",
      log_dir: logDir,
      turn: 1,
      attempt: 1,
      config: "analysts.yaml",
      agents: ["analyst", "reviewer"],
      status: "completed",
      report_path: join(logDir, "ANALYSIS_REPORT.md"),
      analysis_log_dir: expect.stringContaining(join(logDir, "analysis_logs")) as string,
    });
  });

  test("COORD_TRACING_ENABLED=true traces the analysis run: its log and the Trace line name the trace", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const sandbox = await sandboxWithRuns(ERRORS);
      await writeFile(join(sandbox.cwd, "analysts.yaml"), ANALYSTS);
      const result = await runCli(
        ["logs", "analyze", "--mode", "self", "--config", "analysts.yaml", "--json"],
        {
          ...sandbox,
          env: { COORD_TRACING_ENABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      const traceId =
        /^\[system\] Trace: ([0-9a-f]{32}) \(http:\/\/127\.0\.0\.1:\d+\/v1\/traces\)$/m.exec(
          result.stderr,
        )?.[1];
      expect(traceId).toBeDefined();
      // The spans were sent before the command exited.
      const runs = receiver.spans().filter((span) => span.name === "invoke_workflow coord");
      expect(runs.map((span) => span.traceId)).toEqual([traceId]);
      expect(runs[0]!.attributes["coord.agents"]).toEqual(["analyst", "reviewer"]);
      const analysisLog = (JSON.parse(result.stdout) as { analysis_log_dir: string })
        .analysis_log_dir;
      const summary = await runCli(
        ["logs", "summary", "--log-dir", analysisLog, "--json"],
        sandbox,
      );
      expect((JSON.parse(summary.stdout) as { trace_id: string | null }).trace_id).toBe(traceId);
    } finally {
      await receiver.close();
    }
  });

  test("an analysis team that fails writes no report and exits 2", async () => {
    const sandbox = await sandboxWithRuns(THREE);
    await writeFile(
      join(sandbox.cwd, "broken.yaml"),
      `agents:
  - id: only
    backend:
      type: scripted
      steps:
        - error: { status: 401, message: "invalid api key" }
        - error: { status: 401, message: "invalid api key" }
`,
    );
    const result = await runCli(
      ["logs", "analyze", "--mode", "self", "--config", "broken.yaml", "--ui", "automation"],
      sandbox,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("coord: the analysis run ended failed");
    expect(result.stderr).toContain("no ANALYSIS_REPORT.md was written");
    expect(existsSync(join(sandbox.cwd, "agent_outputs", THREE, "ANALYSIS_REPORT.md"))).toBe(false);
  });

  test("the default team needs OPENAI_API_KEY: exit 1 before any agent starts", async () => {
    const sandbox = await sandboxWithRuns(THREE);
    const result = await runCli(["logs", "analyze", "--mode", "self"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(existsSync(join(sandbox.cwd, "agent_outputs", THREE, "analysis_logs"))).toBe(false);
  });

  test("the web flags go with --ui webui", async () => {
    const sandbox = await sandboxWithRuns(THREE);
    const result = await runCli(
      ["logs", "analyze", "--mode", "self", "--web-port", "9000"],
      sandbox,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("coord: --web-port goes with --mode self --ui webui\n");
  });

  test("--config without --mode self is a usage error", async () => {
    const sandbox = await sandboxWithRuns(THREE);
    const result = await runCli(["logs", "analyze", "--config", "x.yaml"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--config is for --mode self");
  });
});

describe("coord logs open", () => {
  test("without a file manager on the PATH it prints the path and says so", async () => {
    const sandbox = await sandboxWithRuns(THREE);
    const bin = join(sandbox.home, "empty-bin");
    await mkdir(bin);
    const result = await runCli(["logs", "open"], { ...sandbox, env: { PATH: bin } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${join(sandbox.cwd, "agent_outputs", THREE)}\n`);
    expect(result.stderr).toBe(
      "coord: no file manager to open it with (xdg-open is not on the PATH); the log directory is printed above\n",
    );
    const json = await runCli(["logs", "open", "--json"], { ...sandbox, env: { PATH: bin } });
    expect(JSON.parse(json.stdout)).toEqual({
      version: 1,
      log_dir: join(sandbox.cwd, "agent_outputs", THREE),
      opened: false,
      opener: null,
    });
  });

  test.skipIf(process.platform === "win32" || process.platform === "darwin")(
    "with xdg-open on the PATH it opens the log directory",
    async () => {
      const sandbox = await sandboxWithRuns(THREE, ERRORS);
      const bin = join(sandbox.home, "bin");
      const marker = join(sandbox.home, "opened.txt");
      await mkdir(bin);
      await writeFile(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" > "${marker}"\n`);
      await chmod(join(bin, "xdg-open"), 0o755);
      const target = join("agent_outputs", THREE);
      const result = await runCli(["logs", "open", "--log-dir", target], {
        ...sandbox,
        env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`Opened ${join(sandbox.cwd, target)} with xdg-open\n`);
      // The opener runs detached: wait until it wrote its marker (a condition, not a count).
      await vi.waitFor(
        async () =>
          expect((await readFile(marker, "utf8").catch(() => "")).trim()).toBe(
            join(sandbox.cwd, target),
          ),
        { timeout: 30_000, interval: 20 },
      );
    },
  );

  test("a --log-dir that does not exist is an error", async () => {
    const sandbox = await sandboxWithRuns(THREE);
    const result = await runCli(["logs", "open", "--log-dir", "nowhere"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `coord: log directory ${join(sandbox.cwd, "nowhere")} does not exist\n`,
    );
  });
});

describe("schema versions", () => {
  test("the v1 fixture event log reads", async () => {
    const sandbox = await makeSandbox();
    const dir = join(sandbox.cwd, "agent_outputs", "log_20250101_120000", "turn_1", "attempt_1");
    await mkdir(dir, { recursive: true });
    await cp(
      join(REPO_ROOT, "test", "fixtures", "logs", "v1", "events.jsonl"),
      join(dir, "events.jsonl"),
    );
    const result = await runCli(["logs", "--json"], sandbox);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ version: 1, turn: 1, attempt: 1 });
  });

  test("a log written by another schema version fails naming the version; list marks it unreadable", async () => {
    const sandbox = await sandboxWithRuns(THREE, ERRORS);
    const events = join(
      sandbox.cwd,
      "agent_outputs",
      ERRORS,
      "turn_1",
      "attempt_1",
      "events.jsonl",
    );
    await writeFile(events, (await readFile(events, "utf8")).replaceAll('{"v":1,', '{"v":99,'));
    const result = await runCli(["logs"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `coord: ${events}:1: event schema version 99 is not supported (this coord reads versions 1 and 2); upgrade coord to read this log\n`,
    );
    const list = await runCli(["logs", "list", "--json"], sandbox);
    expect(list.code).toBe(0);
    const runs = (JSON.parse(list.stdout) as { runs: Record<string, unknown>[] }).runs;
    expect(runs[0]).toMatchObject({
      name: ERRORS,
      status: "unreadable",
      error: expect.stringContaining("event schema version 99 is not supported") as string,
    });
    expect(runs[1]).toMatchObject({ name: THREE, status: "completed", error: null });
    const text = await runCli(["logs", "list"], sandbox);
    expect(text.stdout).toMatch(/unreadable .*event schema version 99 is not supported/);
  });
});
