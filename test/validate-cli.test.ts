/**
 * `coord --validate` on the MassGen-format corpus (test/fixtures/massgen/), with the built CLI:
 * exactly the expected warnings, the key variables each agent needs, `--strict`, `--json` (each
 * error and warning with its file, line, column and key).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, REPO_ROOT, runCli } from "./support/cli.js";

const corpus = (name: string) => `${REPO_ROOT}test/fixtures/massgen/${name}`;

/** Every key variable the corpus's agents need, set (never sent: --validate makes no request). */
const keys = {
  GROQ_API_KEY: "gq",
  ANTHROPIC_API_KEY: "sk-ant-x",
  OPENAI_API_KEY: "sk-x",
  TOGETHER_API_KEY: "tg",
  FIREWORKS_API_KEY: "fw",
  OPENROUTER_API_KEY: "or",
  CEREBRAS_API_KEY: "cb",
  KIMI_API_KEY: "km",
  NEBIUS_API_KEY: "nb",
  POE_API_KEY: "po",
  DASHSCOPE_API_KEY: "qw",
};

describe("coord --validate", () => {
  test("a valid config with MassGen keys: exit 0, one warning line per key, why", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--validate", "--config", corpus("coordination.yaml")], {
      ...sandbox,
      env: keys,
    });
    expect(result.code).toBe(0);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /coordination\.yaml:11:5: orchestrator\.coordination\.enable_planning_mode: not supported in coord: MassGen's planning mode/,
      ),
      expect.stringMatching(
        /coordination\.yaml:12:5: orchestrator\.coordination\.max_orchestration_restarts: not supported/,
      ),
      expect.stringMatching(
        /coordination\.yaml:13:5: orchestrator\.coordination\.use_skills: not supported in coord: MassGen's skills/,
      ),
      expect.stringMatching(
        /coordination\.yaml:17:3: unknown key orchestrator\.timeout_settings_typo \(ignored\)$/,
      ),
    ]);
    expect(result.stdout).toMatch(
      /coordination\.yaml: valid \(0 error\(s\), 4 warning\(s\); 2 agent\(s\) ready\)/,
    );
    const strict = await runCli(
      ["--validate", "--strict", "--config", corpus("coordination.yaml")],
      { ...sandbox, env: keys },
    );
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/not valid \(0 error\(s\), 4 warning\(s\), --strict\)/);
  });

  test("every provider type and Claude Code without a model are ready when their keys are set", async () => {
    const sandbox = await makeSandbox();
    const ready = await runCli(
      ["--validate", "--json", "--config", corpus("provider-types.yaml")],
      {
        ...sandbox,
        env: keys,
      },
    );
    expect(ready.code).toBe(0);
    const report = JSON.parse(ready.stdout) as { valid: boolean; agents: { ready: boolean }[] };
    expect(report.valid).toBe(true);
    expect(report.agents).toHaveLength(10);
    expect(report.agents.every((agent) => agent.ready)).toBe(true);
  });

  test("a missing key names the variable, per agent; ag2 is one line", async () => {
    const sandbox = await makeSandbox();
    const { GROQ_API_KEY: _unset, ...others } = keys;
    const missing = await runCli(
      ["--validate", "--json", "--config", corpus("backend-parameters.yaml")],
      { ...sandbox, env: others },
    );
    expect(missing.code).toBe(1);
    const report = JSON.parse(missing.stdout) as {
      errors: { message: string }[];
      warnings: { kind: string; path: string; line: number }[];
    };
    expect(report.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^agents\[0\] \(fast\): No Groq API key: export GROQ_API_KEY=…/),
    ]);
    expect(report.warnings.map((warning) => [warning.kind, warning.path, warning.line])).toEqual([
      ["unread", "agents[0].backend.top_k", 9],
      ["unread", "agents[2].backend.frequency_penalty", 30],
      ["unread", "agents[2].backend.reasoning_effort", 31],
      ["unread", "agents[3].backend.seed", 38],
    ]);
    const ag2 = await runCli(["--validate", "--config", corpus("ag2.yaml")], sandbox);
    expect(ag2.code).toBe(1);
    expect(ag2.stderr).toMatch(
      /ag2\.yaml:5:13: agents\[0\]\.backend\.type: `ag2` is AG2 \(AutoGen\), a Python framework/,
    );
  });

  test("--json: each error carries file, line, column and key beside its message", async () => {
    const sandbox = await makeSandbox();
    const file = join(sandbox.cwd, "team.yaml");
    await writeFile(
      file,
      [
        "agents:",
        "  - id: a",
        "    backend:",
        "      type: openai",
        "      model: m",
        "      temperature: 3",
        "orchestrator:",
        "  coordination_mode: votng",
        "",
      ].join("\n"),
    );
    const invalid = await runCli(["--validate", "--json", "--config", "team.yaml"], sandbox);
    expect(invalid.code).toBe(1);
    const report = JSON.parse(invalid.stdout) as { errors: Record<string, unknown>[] };
    expect(report.errors).toEqual([
      {
        message: `${file}:6:20: agents[0].backend.temperature: expected a number <= 2, received 3`,
        file,
        key: "agents[0].backend.temperature",
        path: "agents[0].backend.temperature",
        line: 6,
        column: 20,
      },
      {
        message: `${file}:8:22: orchestrator.coordination_mode: received "votng": did you mean "voting"? (expected one of "voting" | "decomposition")`,
        file,
        key: "orchestrator.coordination_mode",
        path: "orchestrator.coordination_mode",
        line: 8,
        column: 22,
      },
    ]);

    // An agent whose backend cannot start (no API key): the position of its `backend:` key.
    await writeFile(file, "agent:\n  id: solo\n  backend: {type: openai, model: m}\n");
    const missing = await runCli(["--validate", "--json", "--config", "team.yaml"], sandbox);
    expect(missing.code).toBe(1);
    const errors = (JSON.parse(missing.stdout) as { errors: Record<string, unknown>[] }).errors;
    expect(errors).toEqual([
      {
        message: expect.stringMatching(/OPENAI_API_KEY/) as unknown,
        file,
        key: "agent.backend",
        path: "agent.backend",
        line: 3,
        column: 3,
      },
    ]);
  });

  test("MassGen keys say why, a misplaced key and reasoning.summary on Chat Completions are named", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "mg.yaml"),
      [
        "agents:",
        "  - id: writer",
        "    append_system_prompt: Be brief.",
        "    backend:",
        "      type: claude_code",
        "      upload_files: [{file_search: docs/a.pdf}]",
        "  - id: fast",
        "    backend:",
        "      type: groq",
        "      model: m",
        "      betas: [files-api-2025-04-14]",
        "      reasoning: {effort: low, summary: auto}",
        "orchestrator:",
        "  dspy: {enabled: true}",
        "",
      ].join("\n"),
    );
    const result = await runCli(["--validate", "--json", "--config", "mg.yaml"], {
      ...sandbox,
      env: keys,
    });
    const report = JSON.parse(result.stdout) as {
      valid: boolean;
      warnings: { kind: string; key: string; message: string }[];
    };
    expect(result.code).toBe(0);
    expect(report.warnings.map((warning) => [warning.kind, warning.key])).toEqual([
      ["unknown", "agents[0].append_system_prompt"],
      ["unsupported", "agents[0].backend.upload_files"],
      ["not-needed", "agents[1].backend.betas"],
      ["unread", "agents[1].backend.reasoning.summary"],
      ["unsupported", "orchestrator.dspy"],
    ]);
    expect(report.warnings[0]?.message).toMatch(
      /did you mean agents\[0\]\.backend\.append_system_prompt\?$/,
    );
    expect(report.warnings[3]?.message).toMatch(
      /`groq` cannot send reasoning\.summary: Chat Completions has no reasoning summary/,
    );
  });
});
