/**
 * A tool that runs inside a round (files, MCP, …), as opposed to the workflow tools that end one
 * (COORDINATION.md step 2). The engine runs these in its own tool loop and reports each call as
 * `tool-call` / `tool-result` events with its duration.
 */
import type { ToolSpec } from "../backends/index.js";

export interface LocalTool {
  spec: ToolSpec;
  /**
   * Runs the tool.
   * @param input the model's arguments (parsed JSON, not yet validated).
   * @returns the text given back to the model.
   * @throws Error whose message is given back to the model as a tool error.
   */
  execute(input: unknown, options: { signal: AbortSignal }): Promise<string>;
}
