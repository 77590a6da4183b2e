/**
 * Tools that run inside rounds (ARCHITECTURE.md "tools/").
 */
export { type LocalTool } from "./tool.js";
