/**
 * The routed-team cache (`./team-cache.ts`) behind `teamForModel`: a `path:` or `@examples/` team
 * named again is not parsed again (the same object comes back), an edited file is picked up by the
 * next request, the confinement and consent checks still run on every request, and clients cannot
 * grow the cache past its bound by varying the name.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { ApiError } from "./api-error.js";
import { createApp } from "./app.js";
import { teamForModel, type TeamContext } from "./served-team.js";
import { createTeamCache, TEAM_CACHE_ENTRIES } from "./team-cache.js";

const QUIET = (ids: string[]) =>
  `agents:\n${ids.map((id) => `  - id: ${id}\n    backend: { type: scripted, steps: [] }\n`).join("")}`;
const ACTING = `agents:\n  - id: a\n    backend: { type: scripted, steps: [], cwd: ws }\n`;

let root: string;
let teamsDir: string;
let context: TeamContext & { teamsDir: string };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-team-cache-"));
  teamsDir = join(root, "teams");
  await mkdir(teamsDir);
  context = { cwd: root, env: {}, teamsDir, cache: createTeamCache() };
});

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("path: teams", () => {
  test("a team named again is the one already loaded; an edit is picked up by the next request", async () => {
    await writeFile(join(teamsDir, "team.yaml"), QUIET(["first", "second"]));
    const first = await teamForModel("path:team.yaml", context);
    expect(await teamForModel("path:team.yaml", context)).toBe(first);
    expect(context.cache?.size).toBe(1);

    await writeFile(join(teamsDir, "team.yaml"), QUIET(["edited"]));
    const edited = await teamForModel("path:team.yaml", context);
    expect(edited).not.toBe(first);
    expect(edited.config.agents.map((agent) => agent.id)).toEqual(["edited"]);
    expect(context.cache?.size).toBe(1);
  });

  test("an edit that makes the file invalid is refused, though the valid team was cached", async () => {
    await writeFile(join(teamsDir, "team.yaml"), QUIET(["a"]));
    await teamForModel("path:team.yaml", context);
    await writeFile(join(teamsDir, "team.yaml"), "agents: [");
    expect((await refusal(teamForModel("path:team.yaml", context))).code).toBe(
      "model_invalid_config",
    );
  });

  test("an edit that makes the team act is refused without --allow-acting-teams", async () => {
    await writeFile(join(teamsDir, "team.yaml"), QUIET(["a"]));
    await teamForModel("path:team.yaml", context);
    await writeFile(join(teamsDir, "team.yaml"), ACTING);
    expect((await refusal(teamForModel("path:team.yaml", context))).code).toBe("model_not_allowed");
  });

  test("the file is confined on every request: replaced by a link out of the folder, it is refused", async () => {
    await writeFile(join(teamsDir, "team.yaml"), QUIET(["a"]));
    await teamForModel("path:team.yaml", context);
    // The same text outside the folder: a cache keyed by text alone would still answer it.
    await writeFile(join(root, "outside.yaml"), QUIET(["a"]));
    await rm(join(teamsDir, "team.yaml"));
    await symlink(join(root, "outside.yaml"), join(teamsDir, "team.yaml"));
    const error = await refusal(teamForModel("path:team.yaml", context));
    expect(error.code).toBe("model_not_allowed");
    expect(error.message).toContain("outside the server's --teams folder");
  });

  test("names a client varies stay within the cache's bound", async () => {
    await writeFile(join(teamsDir, "team.yaml"), QUIET(["a"]));
    for (let index = 0; index < TEAM_CACHE_ENTRIES + 40; index++) {
      await teamForModel(`path:${"./".repeat(index)}team.yaml`, context);
    }
    expect(context.cache?.size).toBe(TEAM_CACHE_ENTRIES);
  });

  test("without a cache every request loads the team", async () => {
    await writeFile(join(teamsDir, "team.yaml"), QUIET(["a"]));
    const uncached = { ...context, cache: undefined };
    const first = await teamForModel("path:team.yaml", uncached);
    expect(await teamForModel("path:team.yaml", uncached)).not.toBe(first);
  });
});

test("the server answers an edited path: team with the edit, request after request", async () => {
  const server = createApp({ env: {}, cwd: root, teamsDir, version: "0.0.0-test" });
  const answer = async () => {
    const response = await server.request("/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "path:team.yaml", messages: [{ role: "user", content: "?" }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: [{ message: { content: string } }] };
    return body.choices[0].message.content;
  };
  const team = (text: string) =>
    `agents:\n  - id: one\n    backend: { type: scripted, steps: [{ answer: '${text}' }] }\n`;
  await writeFile(join(teamsDir, "team.yaml"), team("First."));
  expect(await answer()).toBe("First.");
  expect(await answer()).toBe("First.");
  await writeFile(join(teamsDir, "team.yaml"), team("Edited."));
  expect(await answer()).toBe("Edited.");
});

describe("@examples/ teams", () => {
  test("a quiet example named again is the one already loaded; one that acts is refused each time", async () => {
    const first = await teamForModel("@examples/scripted_team", context);
    expect(await teamForModel("@examples/scripted_team", context)).toBe(first);
    for (let round = 0; round < 2; round++) {
      expect((await refusal(teamForModel("@examples/tools_team", context))).code).toBe(
        "model_not_allowed",
      );
    }
    expect(context.cache?.size).toBe(1);
  });
});

describe("createTeamCache", () => {
  test("drops the least recently used entry first; a stale stamp is a miss", async () => {
    const cache = createTeamCache(2);
    const team = await teamForModel("@examples/scripted_team", { cwd: root, env: {} });
    cache.set("a", "1", team);
    cache.set("b", "1", team);
    expect(cache.get("a", "1")).toBe(team); // a is now the most recently used
    cache.set("c", "1", team);
    expect(cache.get("b", "1")).toBeUndefined();
    expect(cache.get("a", "1")).toBe(team);
    expect(cache.get("a", "2")).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
