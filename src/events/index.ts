export * from "./events.js";
export * from "./jsonl.js";
