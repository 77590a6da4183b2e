/**
 * Persona generation (`--personas MODE`, `orchestrator.coordination.persona_generator`;
 * docs/coordination.md "Other modes"): before coordination, one structured-output call (see
 * `./planning-call.ts`) writes one distinct persona per agent in the chosen diversity mode. The
 * persona is put before the agent's system message and softened once the agent can see other
 * agents' answers (`personaPrompt` in `./prompts.ts`). Each persona is a `persona` event.
 *
 * With personas from an earlier turn that cover the whole team (`persist_across_turns`) no call is
 * made: they are reused (`source: session`). A failed call, or one that gives no usable or no
 * distinct personas, leaves the agents without personas and says so in a `warning` event.
 */
import type { Backend } from "../backends/index.js";
import type { PrepareContext } from "./modes/mode.js";
import { planningCall, sameEntry } from "./planning-call.js";
import { historyBlock, type HistoryTurn } from "./prompts.js";

/** What the personas differ in. */
export type DiversityMode = "perspective" | "implementation" | "methodology";

/** Options of {@link assignPersonas}. */
export interface PersonaOptions {
  diversityMode: DiversityMode;
  /** The user's extra guidelines (`persona_guidelines`). */
  guidelines?: string | undefined;
  /**
   * The generator's own backend (`persona_generator.backend`); default the first live agent's,
   * whose round the call then is.
   */
  backend?: Backend | undefined;
  /** Personas of an earlier turn by real agent id: reused when they cover the whole team. */
  reuse?: Readonly<Record<string, string>> | undefined;
}

/** `source` of the `warning` event when persona generation fails. */
export const PERSONA_WARNING_SOURCE = "personas";

/** Characters of an agent's own system message the generator is shown. */
const SYSTEM_MESSAGE_EXCERPT = 500;

const DIVERSITY: Record<DiversityMode, string> = {
  perspective:
    "Make them differ in perspective: what each agent values and optimises for (for example correctness, simplicity, the user's experience, risk, cost, long-term maintenance).",
  implementation:
    "Make them differ in implementation: the kind of solution each agent builds (different approaches, techniques, or readings of what is asked).",
  methodology:
    "Make them differ in methodology: how each agent works (for example from first principles, from concrete examples, test-first, by looking for what could go wrong).",
};

/** Sets every agent's persona (generated or reused) and emits the `persona` events. */
export async function assignPersonas(
  options: PersonaOptions,
  context: PrepareContext,
): Promise<void> {
  const { team, emitter } = context;
  const reuse = options.reuse;
  if (reuse !== undefined && team.agents.every((agent) => reuse[agent.agent.id]?.trim())) {
    for (const agent of team.agents) {
      agent.persona = reuse[agent.agent.id]!.trim();
      emitter.emit({
        type: "persona",
        agentId: agent.agent.id,
        persona: agent.persona,
        source: "session",
      });
    }
    return;
  }
  const first = team.live()[0];
  const backend = options.backend ?? first?.agent.backend;
  if (backend === undefined) return;
  // The call is a round of the first agent when it runs on that agent's backend.
  const caller = options.backend === undefined ? first : undefined;
  if (caller !== undefined) caller.rounds++;
  const result = await planningCall({
    agentId: caller?.agent.id,
    round: caller?.rounds ?? 1,
    backend,
    produces: "personas",
    system: personaSystemPrompt(team.agents.length, options),
    userMessage: personaUserMessage({
      question: context.question,
      history: context.history,
      systemMessages: team.agents.map((agent) => ({
        anonId: agent.anonId,
        systemMessage: agent.agent.systemMessage,
      })),
    }),
    tool: {
      name: "assign_personas",
      description: "Give each agent its persona.",
      entryDescription: "The persona of",
    },
    keys: team.agents.map((agent) => agent.anonId),
    emitter,
    clock: context.clock,
    signal: context.signal,
    ...(caller !== undefined
      ? {
          temperature: caller.agent.temperature,
          maxOutputTokens: caller.agent.maxOutputTokens,
        }
      : {}),
  });
  if (!result.ok && result.aborted) return;
  const reason = result.ok ? sameEntry(result.entries) : result.reason;
  if (!result.ok || reason !== undefined) {
    emitter.emit({
      type: "warning",
      ...(caller !== undefined ? { agentId: caller.agent.id } : {}),
      source: PERSONA_WARNING_SOURCE,
      message: `the persona call failed (${reason}); the agents run without personas`,
    });
    return;
  }
  for (const agent of team.agents) {
    agent.persona = result.entries[agent.anonId];
    emitter.emit({
      type: "persona",
      agentId: agent.agent.id,
      persona: agent.persona!,
      source: "generated",
    });
  }
}

/** System prompt of the persona call. */
export function personaSystemPrompt(
  teamSize: number,
  options: Pick<PersonaOptions, "diversityMode" | "guidelines">,
): string {
  return [
    `You write personas for a team of ${teamSize} AI agents (agent1 … agent${teamSize}) who will each work on the task below and then read each other's answers.`,
    `Give every agent one distinct persona. ${DIVERSITY[options.diversityMode]}`,
    'Write each persona in two to four sentences in the second person ("You …"): it is put at the start of that agent\'s system prompt. A persona changes how an agent works, not what it works on: every agent keeps its whole assignment. Where an agent has instructions of its own, fit its persona to them.',
    ...(options.guidelines?.trim()
      ? [`Guidelines from the user: ${options.guidelines.trim()}`]
      : []),
    "Answer only with the assign_personas tool.",
  ].join("\n");
}

/** User message of the persona call: the task, and the agents' own instructions if any. */
export function personaUserMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
  systemMessages: ReadonlyArray<{ anonId: string; systemMessage: string | undefined }>;
}): string {
  const instructions = options.systemMessages.filter((entry) => entry.systemMessage?.trim());
  return [
    ...historyBlock(options.history),
    `<TASK>\n${options.question}\n</TASK>`,
    ...(instructions.length > 0
      ? [
          `The agents' own instructions:\n${instructions
            .map(
              (entry) =>
                `- ${entry.anonId}: ${entry.systemMessage!.trim().slice(0, SYSTEM_MESSAGE_EXCERPT)}`,
            )
            .join("\n")}`,
        ]
      : []),
    `Write a persona for each of: ${options.systemMessages.map((entry) => entry.anonId).join(", ")}.`,
  ].join("\n\n");
}
