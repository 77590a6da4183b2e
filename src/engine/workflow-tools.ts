/**
 * The workflow tools of docs/coordination.md "Voting mode" step 2, given to the model as real tool
 * schemas. A round must end in exactly one of them; other tools run inside the round. Which of them
 * a round may use is the coordination mode's choice (`./modes/mode.ts` `workflowToolNames`).
 */
import type { ToolCall, ToolSpec } from "../backends/index.js";

export const NEW_ANSWER = "new_answer";
export const VOTE = "vote";
export const STOP = "stop";
/** Planning mode's answer: a structured plan (`./plan-tools.ts` builds its schema). */
export const SUBMIT_PLAN = "submit_plan";

/** Every workflow tool name the engine knows. */
export const WORKFLOW_TOOL_NAMES = [NEW_ANSWER, VOTE, STOP, SUBMIT_PLAN] as const;
export type WorkflowToolName = (typeof WORKFLOW_TOOL_NAMES)[number];

/** True when `name` is a workflow tool of `allowed` (a mode's names). */
export function isWorkflowTool(name: string, allowed: readonly WorkflowToolName[]): boolean {
  return (allowed as readonly string[]).includes(name);
}

/** `new_answer(content)`. */
export function newAnswerTool(): ToolSpec {
  return {
    name: NEW_ANSWER,
    description:
      "Submit your complete answer to the original message. It replaces your previous answer. Use it when no answer exists yet or when you can clearly improve on every current answer.",
    inputSchema: {
      type: "object",
      properties: {
        content: { type: "string", description: "Your full answer, standing on its own." },
        short_answer: {
          type: "string",
          description:
            "Optional: when the question has a short answer (a number, a choice, a name), that answer alone, e.g. 18 or B.",
        },
      },
      required: ["content"],
      additionalProperties: false,
    },
  };
}

/**
 * `vote(agent_id, reason)`; `agent_id` is limited to the anonymous ids that hold an answer.
 * @param candidates anonymous ids (`agent<N>`) with a current answer, in config order; non-empty.
 */
export function voteTool(candidates: readonly string[]): ToolSpec {
  return {
    name: VOTE,
    description:
      "Vote for the best current answer, when it is good enough that a new answer would not clearly improve it.",
    inputSchema: {
      type: "object",
      properties: {
        agent_id: {
          type: "string",
          enum: [...candidates],
          description: "The anonymous id of the agent whose answer is best.",
        },
        reason: {
          type: "string",
          description: "Why that answer is best, in one or two sentences.",
        },
      },
      required: ["agent_id", "reason"],
      additionalProperties: false,
    },
  };
}

/** Statuses of a `stop` call. */
export const STOP_STATUSES = ["complete", "blocked"] as const;
export type StopStatus = (typeof STOP_STATUSES)[number];

/**
 * `stop(status, summary)` (decomposition mode): the agent is done with its subtask as its current
 * answer stands (`complete`), or cannot go on (`blocked`).
 */
export function stopTool(): ToolSpec {
  return {
    name: STOP,
    description:
      "Stop working on your subtask: `complete` when your current answer is your finished part, `blocked` when you cannot go on (say why). A new answer from another agent wakes you up again.",
    inputSchema: {
      type: "object",
      properties: {
        status: { type: "string", enum: [...STOP_STATUSES], description: "complete or blocked." },
        summary: {
          type: "string",
          description:
            "What your part covers, or (blocked) what stops you, in one or two sentences.",
        },
      },
      required: ["status", "summary"],
      additionalProperties: false,
    },
  };
}

/** A parsed workflow call, or why it is not one. */
export type WorkflowCall =
  /** `shortAnswer`: the optional `short_answer` field, trimmed, when given as a non-empty string. */
  | { kind: "new_answer"; call: ToolCall; content: string; shortAnswer?: string }
  | { kind: "vote"; call: ToolCall; agentId: string; reason: string }
  | { kind: "stop"; call: ToolCall; status: StopStatus; summary: string }
  /** `submit_plan`: the arguments as given; the planning mode checks them. */
  | { kind: "plan"; call: ToolCall; input: unknown }
  | { kind: "invalid"; message: string };

function field(input: unknown, key: string): unknown {
  return input !== null && typeof input === "object"
    ? (input as Record<string, unknown>)[key]
    : undefined;
}

/** `a`, `a or b`, `a, b or c`. */
function either(names: readonly string[]): string {
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/**
 * Picks the one workflow call out of a model turn's tool calls and checks its arguments' shape.
 * Invalid: none; more than one (vote and new_answer together included); missing or non-string
 * arguments. Semantic checks (answer set, caps, novelty) belong to the mode.
 * @param allowed the workflow tools of the mode; calls to other tools are not workflow calls.
 */
export function parseWorkflowCall(
  calls: readonly ToolCall[],
  allowed: readonly WorkflowToolName[],
): WorkflowCall {
  const workflow = calls.filter((call) => isWorkflowTool(call.toolName, allowed));
  if (workflow.length === 0) {
    return {
      kind: "invalid",
      message: `You must end your turn with exactly one workflow tool call: ${either(allowed)}.`,
    };
  }
  if (workflow.length > 1) {
    const names = workflow.map((call) => call.toolName).join(", ");
    return {
      kind: "invalid",
      message: `You made ${workflow.length} workflow calls (${names}); make exactly one: ${allowed.length > 1 ? "either " : ""}${either(allowed)}.`,
    };
  }
  const call = workflow[0]!;
  if (call.toolName === SUBMIT_PLAN) return { kind: "plan", call, input: call.input };
  if (call.toolName === NEW_ANSWER) {
    const content = field(call.input, "content");
    if (typeof content !== "string" || content.trim() === "") {
      return { kind: "invalid", message: `${NEW_ANSWER} needs a non-empty string "content".` };
    }
    const shortAnswer = field(call.input, "short_answer");
    return {
      kind: "new_answer",
      call,
      content: content.trim(),
      ...(typeof shortAnswer === "string" && shortAnswer.trim() !== ""
        ? { shortAnswer: shortAnswer.trim() }
        : {}),
    };
  }
  if (call.toolName === STOP) {
    const status = field(call.input, "status");
    if (typeof status !== "string" || !(STOP_STATUSES as readonly string[]).includes(status)) {
      return { kind: "invalid", message: `${STOP} needs "status": complete or blocked.` };
    }
    // Models sometimes name the summary `reason`; both mean the same here.
    const summary = field(call.input, "summary") ?? field(call.input, "reason");
    return {
      kind: "stop",
      call,
      status: status as StopStatus,
      summary: typeof summary === "string" ? summary.trim() : "",
    };
  }
  const agentId = field(call.input, "agent_id");
  const reason = field(call.input, "reason");
  if (typeof agentId !== "string") {
    return {
      kind: "invalid",
      message: `${VOTE} needs "agent_id", the anonymous id (agent1, agent2, …) of an answer.`,
    };
  }
  return {
    kind: "vote",
    call,
    agentId: agentId.trim(),
    reason: typeof reason === "string" ? reason : "",
  };
}
