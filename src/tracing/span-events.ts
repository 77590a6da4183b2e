/**
 * The coordination events that become span events (docs/tracing.md "Span events"): on the round
 * of the agent they are about (answers, votes, refusals, updates, invalid workflow calls, stops,
 * agent errors, warnings), or on the run's span (the winner, reset votes, personas). Agent
 * errors are OpenTelemetry `exception` events. Texts written by users or models appear only with
 * `includeContent`; every text is redacted.
 */
import type { Attributes } from "@opentelemetry/api";
import type { CoordEvent } from "../events/index.js";
import { redact } from "../redact.js";

/** A span event, and the span it goes on: the agent's open round (else the run's) or the run's. */
export interface SpanEventSpec {
  on: "agent" | "run";
  name: string;
  attributes: Attributes;
}

/**
 * The span event for `event`, or undefined when it becomes none (spans, deltas, block
 * boundaries, and types a newer engine adds).
 */
export function spanEventFor(
  event: CoordEvent,
  includeContent: boolean,
): SpanEventSpec | undefined {
  const content = (attributes: Attributes, key: string, text: string) =>
    includeContent ? { ...attributes, [key]: redact(text) } : attributes;
  const agent = (name: string, attributes: Attributes): SpanEventSpec => ({
    on: "agent",
    name,
    attributes,
  });
  switch (event.type) {
    case "workflow-invalid":
      return agent("workflow-invalid", {
        "coord.attempt": event.attempt,
        "coord.message": redact(event.message),
      });
    case "update-injected":
      return agent("update-injected", {
        "coord.update.labels": event.labels,
        "coord.update.via": event.via,
      });
    case "answer":
      return agent(
        "answer",
        content({ "coord.answer.label": event.label }, "coord.answer.content", event.content),
      );
    case "vote":
      return agent(
        "vote",
        content(
          {
            "coord.vote.target_agent_id": event.targetAgentId,
            "coord.vote.target_anon_id": event.targetAnonId,
            "coord.vote.label": event.label,
          },
          "coord.vote.reason",
          event.reason,
        ),
      );
    case "vote-refused":
      return agent("vote-refused", {
        "coord.vote.target_anon_id": event.targetAnonId,
        "coord.message": redact(event.message),
      });
    case "stop":
      return agent(
        "stop",
        content({ "coord.stop.status": event.status }, "coord.stop.summary", event.summary),
      );
    case "agent-error":
      return agent("exception", {
        "exception.type": "AgentError",
        "exception.message": redact(event.message),
        "coord.agent.id": event.agentId ?? "",
        "coord.error.fatal": event.fatal,
        "coord.error.retryable": event.retryable,
        ...(event.provider !== undefined ? { "coord.error.provider": event.provider } : {}),
        ...(event.status !== undefined ? { "http.response.status_code": event.status } : {}),
      });
    case "warning":
      return agent("warning", {
        "coord.warning.source": event.source,
        "coord.warning.message": redact(event.message),
      });
    case "votes-reset":
      return {
        on: "run",
        name: "votes-reset",
        attributes: {
          "coord.votes_reset.cause_label": event.causeLabel,
          "coord.votes_reset.cleared": event.cleared,
        },
      };
    case "persona":
      return {
        on: "run",
        name: "persona",
        attributes: content(
          { "coord.agent.id": event.agentId ?? "" },
          "coord.persona",
          event.persona,
        ),
      };
    case "winner":
      return {
        on: "run",
        name: "winner",
        attributes: {
          "coord.winner.agent_id": event.agentId ?? "",
          "coord.winner.anon_id": event.anonId,
          "coord.winner.label": event.label,
          "coord.winner.votes": event.votes,
          "coord.winner.basis": event.basis,
          "coord.winner.tie_broken": event.tieBroken,
        },
      };
    default:
      return undefined;
  }
}
