/**
 * Checks across keys that the schema cannot express: unique agent ids, a model for every backend
 * that needs one (all but `scripted` and `claude_code`), `presenter_agent` naming an agent, a
 * `backend.cwd` whose folder name is a safe name.
 */
import { basename, normalize } from "node:path";
import { isSafeName, SAFE_NAME_RULE } from "../safe-name.js";
import { checkToolConfig } from "./check-tool-config.js";
import type { ConfigProblem } from "./config-problem.js";
import type { Config } from "./schema.js";

export type { ConfigProblem } from "./config-problem.js";

/**
 * Returns the problems of a schema-valid config (empty when none) and fills in defaults that
 * depend on other keys (`backend.model` of a `scripted` agent defaults to `"scripted"`).
 */
export function checkConfig(config: Config): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const firstIndexOf = new Map<string, number>();
  for (const [index, agent] of config.agents.entries()) {
    const earlier = firstIndexOf.get(agent.id);
    if (earlier === undefined) firstIndexOf.set(agent.id, index);
    else {
      problems.push({
        path: ["agents", index, "id"],
        text: `duplicate agent id ${JSON.stringify(agent.id)} (also agents[${earlier}].id); give each agent its own id`,
      });
    }
    const workspaceProblem = workspaceNameProblem(agent.backend.cwd);
    if (workspaceProblem !== undefined) {
      problems.push({ path: ["agents", index, "backend", "cwd"], text: workspaceProblem });
    }
    if (agent.backend.model === undefined) {
      if (agent.backend.type === "scripted") agent.backend.model = "scripted";
      // Claude Code picks its default model (MassGen's examples leave `model:` out).
      else if (agent.backend.type !== "claude_code") {
        const what = agent.backend.type === "local" ? "the path of a GGUF file" : "the model name";
        problems.push({
          path: ["agents", index, "backend", "model"],
          text: `expected string (${what}) for backend ${agent.backend.type}, but the key is missing`,
        });
      }
    }
  }
  const presenter = config.orchestrator.presenter_agent;
  if (presenter !== undefined && !firstIndexOf.has(presenter)) {
    problems.push({
      path: ["orchestrator", "presenter_agent"],
      text: `expected one of the agent ids ${[...firstIndexOf.keys()]
        .map((id) => JSON.stringify(id))
        .join(" | ")}, received ${JSON.stringify(presenter)}`,
    });
  }
  problems.push(...checkToolConfig(config));
  return problems;
}

/**
 * Why `backend.cwd` names no safe workspace folder, or undefined when it does. The folder is the
 * last segment of the path as written (`./ws`, `${cwd}/ws` and `ws/` name `ws`); an empty name,
 * `.` and `..` as written are reported by check-tool-config.ts.
 */
function workspaceNameProblem(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  const written = cwd.trim();
  if (written === "" || written === "." || written === "..") return undefined;
  const folder = basename(normalize(written));
  return isSafeName(folder)
    ? undefined
    : `the workspace folder would be ${JSON.stringify(folder)}: expected ${SAFE_NAME_RULE}`;
}
