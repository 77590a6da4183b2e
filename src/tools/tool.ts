/**
 * A tool that runs inside a round (files, commands, MCP), as opposed to the workflow tools that
 * end one (docs/coordination.md "Voting mode" step 2). The engine runs these in its own tool loop
 * and reports each call as `tool-call` / `tool-result` events with its duration; tools are built
 * outside the engine (this folder, wired by the runner) and may do I/O.
 */
import type { ToolSpec } from "../backends/index.js";

/** Who calls a tool, and in which phase (docs/tools.md "Permissions"). */
export interface ToolCallContext {
  /** Real id of the calling agent. */
  agentId: string;
  /**
   * True while the agent writes the final answer (docs/coordination.md "Voting mode" step 7): only
   * then may it write to context paths with `write` permission.
   */
  presenting: boolean;
  /** Aborts the call (the round was stopped). */
  signal: AbortSignal;
}

export interface LocalTool {
  spec: ToolSpec;
  /**
   * Runs the tool.
   * @param input the model's arguments (parsed JSON, not yet validated).
   * @returns the text given back to the model.
   * @throws Error whose message is given back to the model as a tool error.
   */
  execute(input: unknown, context: ToolCallContext): Promise<string>;
}

/** Something the tools want the run's log to say (an MCP server died, a snapshot failed). */
export interface ToolNotice {
  /** The agent concerned, if one. */
  agentId?: string;
  /** Where it comes from, e.g. `mcp/weather`, `workspace`. */
  source: string;
  message: string;
}

/**
 * The runner's channel of {@link ToolNotice}s into the engine, which turns each into a `warning`
 * event of the run's one stream. Notices sent before the engine subscribes are kept for it.
 */
export interface NoticeSource {
  /** Starts delivery (first the notices kept so far); returns the unsubscribe function. */
  subscribe(listener: (notice: ToolNotice) => void): () => void;
}

/** What one workspace snapshot holds. */
export interface SnapshotReport {
  /** The live workspace snapshotted (absolute path). */
  workspace: string;
  files: number;
  /** Total size of the files (bytes). */
  bytes: number;
  /** Where the run log keeps it, relative to the attempt directory; absent without a log. */
  logPath?: string;
}

/**
 * An agent's workspace as the engine drives it (docs/tools.md "Workspaces"). Every method queues
 * its work at the moment it is called and the queue runs in order, so a snapshot requested when
 * an answer is accepted is complete before any later view refresh reads it.
 */
export interface WorkspaceHooks {
  /**
   * Brings the agent's read-only copies of the other agents' latest snapshots up to date; called
   * before each of its model calls.
   */
  refreshView: () => Promise<void>;
  /**
   * Snapshots the agent's workspace as `label` (`agent1.2`, `agent1.final`); called synchronously
   * when an answer is accepted, and after the final presentation. Absent for an agent without a
   * workspace of its own.
   * @returns what it holds, or undefined when it failed (a notice says why).
   */
  snapshot?: (label: string) => Promise<SnapshotReport | undefined>;
}
