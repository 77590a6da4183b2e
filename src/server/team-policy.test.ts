/**
 * Which teams act, and which folders runs write: `actingReasons` agrees with
 * the runner's own test for tools on every built-in example, so a team the server calls quiet is
 * one that gets no tools; `insideRunOutput` catches the output folders however a path names them;
 * `teamForModel` refuses what the operator did not name.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { listExamples } from "../config/examples.js";
import { runNeedsTools } from "../runner/run-tools.js";
import { ApiError } from "./api-error.js";
import { loadServedTeam, quietExamples, teamForModel } from "./served-team.js";
import { actingReasons, insideRunOutput, runOutputRoots } from "./team-policy.js";

describe("actingReasons", () => {
  test("agrees with runNeedsTools on every built-in example, and names each cause", async () => {
    const acting: string[] = [];
    for (const name of listExamples()) {
      const team = await loadServedTeam(`@examples/${name}`, { cwd: process.cwd(), env: {} });
      const reasons = actingReasons(team.config, team.agentIndexes);
      expect(reasons.length > 0, name).toBe(runNeedsTools(team.config, team.agentIndexes));
      if (reasons.length > 0) acting.push(name);
      if (name === "tools_team") {
        expect(reasons).toEqual([
          "orchestrator.context_paths gives the agents files on the server to read and write",
          "agent gpt runs commands (enable_mcp_command_line)",
          "agent gpt writes files in a workspace (backend.cwd)",
          "agent claude starts MCP servers (mcp_servers)",
          "agent claude writes files in a workspace (backend.cwd)",
        ]);
      }
    }
    expect(acting).toContain("tools_team");
    expect(acting).toContain("scripted_tools");
    const quiet = await quietExamples({ cwd: process.cwd(), env: {} });
    expect(quiet).toContain("@examples/scripted_team");
    for (const name of acting) expect(quiet).not.toContain(`@examples/${name}`);
  });
});

describe("insideRunOutput", () => {
  const cwd = "/srv/coord";
  const roots = runOutputRoots(cwd, { COORD_LOG_DIR: "/var/log/coord" });

  test("the log root, .coord, COORD_LOG_DIR and any agent_outputs/.coord below the base", () => {
    expect(insideRunOutput("/srv/coord/agent_outputs/log_1/final_answer.md", roots, cwd)).toBe(
      "/srv/coord/agent_outputs",
    );
    expect(insideRunOutput("/srv/coord/.coord/workspaces/run_1/a.yaml", roots, cwd)).toBe(
      "/srv/coord/.coord",
    );
    expect(insideRunOutput("/var/log/coord/x.yaml", roots, cwd)).toBe("/var/log/coord");
    expect(insideRunOutput("/srv/coord/teams/sub/agent_outputs/t.yaml", [], "/srv/coord")).toBe(
      "/srv/coord/teams/sub/agent_outputs",
    );
    expect(insideRunOutput("/srv/coord/agent_outputs", roots, cwd)).toBe(
      "/srv/coord/agent_outputs",
    );
  });

  test("files beside them are not", () => {
    expect(insideRunOutput("/srv/coord/teams/a.yaml", roots, cwd)).toBeUndefined();
    expect(insideRunOutput("/srv/coord/agent_outputs_notes.yaml", roots, cwd)).toBeUndefined();
    expect(insideRunOutput("/srv/other/agent_outputs/x.yaml", roots, cwd)).toBeUndefined();
  });
});

describe("teamForModel", () => {
  const refusal = async (model: string, context: Parameters<typeof teamForModel>[1]) => {
    const error = await teamForModel(model, context).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error, model).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  };

  test("acting examples, path: without --teams, and acting path: teams without the opt-in are refused", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-policy-"));
    await writeFile(
      join(cwd, "acting.yaml"),
      "agents:\n  - id: doer\n    backend: { type: scripted, enable_mcp_command_line: true, steps: [] }\n",
    );
    await mkdir(join(cwd, "agent_outputs"));
    await writeFile(
      join(cwd, "agent_outputs", "quiet.yaml"),
      "agents:\n  - id: one\n    backend: { type: scripted, steps: [] }\n",
    );
    const base = { cwd, env: {} };
    expect(await refusal("@examples/tools_team", base)).toContain("acts on the server");
    expect(await refusal("path:acting.yaml", base)).toContain("--teams DIR");
    const teams = { ...base, teamsDir: cwd };
    expect(await refusal("path:acting.yaml", teams)).toContain("--allow-acting-teams");
    expect(await refusal("path:agent_outputs/quiet.yaml", teams)).toContain(
      "inside agent_outputs/",
    );
    const allowed = await teamForModel("path:acting.yaml", { ...teams, allowActing: true });
    expect(allowed.config.agents[0]!.id).toBe("doer");
    expect(
      await refusal("path:agent_outputs/quiet.yaml", { ...teams, allowActing: true }),
    ).toContain("nothing a run wrote is ever loaded");
  });
});
