/**
 * Why a run's answer is degraded (docs/real-models.md): the lines of `run-end.degraded`, and
 * the one-line error of a run that never had an answer, naming what each agent's model did.
 */
import type { EventBody } from "../events/index.js";
import type { Team } from "./team.js";

/**
 * Adds the line an event contributes to the run's degradation record, if any: an agent removed
 * (and why), cut as a straggler, a budget limit, a failed presentation.
 */
export function noteDegradation(body: EventBody, degraded: string[]): void {
  switch (body.type) {
    case "agent-error":
      if (body.fatal) degraded.push(`${body.agentId ?? "an agent"} removed: ${body.message}`);
      else if (body.message.startsWith("final presentation failed"))
        degraded.push(`${body.agentId ?? "the presenter"}: ${body.message}`);
      break;
    case "straggler-cut":
      degraded.push(`${body.agentId ?? "an agent"} cut: ${body.message}`);
      break;
    case "limit-reached":
      degraded.push(body.message);
      break;
    default:
      break;
  }
}

/**
 * `run-end.error` of a run in which every agent failed before any answer: what each one's model
 * did; it points at the providers' messages only when a provider failed.
 */
export function failureMessage(team: Team): string {
  const failures = team.agents.flatMap((agent) =>
    agent.lastFailure ? [{ id: agent.agent.id, ...agent.lastFailure }] : [],
  );
  if (failures.length === 0) return "every agent failed before giving an answer";
  const described = failures.map((failure) => `${failure.id}: ${failure.message}`).join("; ");
  const provider = failures.some((failure) => failure.cause === "provider");
  return `every agent failed before giving an answer (${described})${provider ? "; see the agent-error events for the providers' messages" : ""}`;
}
