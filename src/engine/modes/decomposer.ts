/**
 * Decomposition mode's pre-coordination phase (docs/coordination.md "Other modes"): every agent
 * gets one subtask, from its config `subtask:` key, else from one decomposer call made with the
 * first live agent's backend (a structured output, see `./planning-call.ts`). When that call fails
 * or gives no usable output, every agent without a subtask takes {@link FALLBACK_SUBTASK} and a
 * `warning` event says so. Each assignment is a `subtask` event.
 */
import type { EventOf } from "../../events/index.js";
import {
  decomposerSystemPrompt,
  decomposerUserMessage,
  FALLBACK_SUBTASK,
} from "./decomposition-prompts.js";
import type { PrepareContext } from "./mode.js";
import { planningCall, sameEntry } from "../planning-call.js";
import type { AgentState } from "../team.js";

/** `source` of the `warning` event when the decomposer call fails. */
export const DECOMPOSER_WARNING_SOURCE = "decomposer";

/** Assigns a subtask to every agent of the team and emits the `subtask` events. */
export async function assignSubtasks(context: PrepareContext): Promise<void> {
  const { team, emitter } = context;
  const sources = new Map<AgentState, EventOf<"subtask">["source"]>();
  for (const agent of team.agents) if (agent.subtask !== undefined) sources.set(agent, "config");
  const open = team.agents.filter((agent) => agent.subtask === undefined);
  const planner = team.live()[0];
  if (open.length > 0 && planner !== undefined) {
    planner.rounds++;
    const result = await planningCall({
      agentId: planner.agent.id,
      round: planner.rounds,
      backend: planner.agent.backend,
      produces: "subtasks",
      system: decomposerSystemPrompt(team.agents.length),
      userMessage: decomposerUserMessage({
        question: context.question,
        history: context.history,
        agents: team.agents.map((agent) => ({ anonId: agent.anonId, subtask: agent.subtask })),
      }),
      tool: {
        name: "assign_subtasks",
        description: "Assign one subtask to each agent that has none yet.",
        entryDescription: "The subtask of",
      },
      keys: open.map((agent) => agent.anonId),
      emitter,
      clock: context.clock,
      signal: context.signal,
      temperature: planner.agent.temperature,
      maxOutputTokens: planner.agent.maxOutputTokens,
    });
    const duplicate = result.ok ? sameEntry(result.entries) : undefined;
    if (result.ok && duplicate === undefined) {
      for (const agent of open) {
        agent.subtask = result.entries[agent.anonId];
        sources.set(agent, "decomposer");
      }
    } else if (!result.ok && result.aborted) {
      return; // the run was stopped: coordination will not start
    } else {
      emitter.emit({
        type: "warning",
        agentId: planner.agent.id,
        source: DECOMPOSER_WARNING_SOURCE,
        message: `the decomposer call failed (${result.ok ? duplicate : result.reason}); ${open.map((agent) => agent.agent.id).join(", ")} work on the whole task instead`,
      });
    }
  }
  for (const agent of team.agents) {
    if (agent.subtask === undefined) {
      agent.subtask = FALLBACK_SUBTASK;
      sources.set(agent, "fallback");
    }
    emitter.emit({
      type: "subtask",
      agentId: agent.agent.id,
      anonId: agent.anonId,
      subtask: agent.subtask,
      source: sources.get(agent) ?? "fallback",
    });
  }
}
