export * from "./events.js";
export * from "./jsonl.js";
export * from "./plan.js";
