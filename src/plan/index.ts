/**
 * The plan's rules, below the engine, the store and the session so each of them can use them:
 * the structural check and cycle search (checks.ts), the schedule (schedule.ts) and the Markdown
 * form (render.ts). The plan's types and zod schema are the contract, in src/events/plan.ts.
 */
export * from "./checks.js";
export * from "./render.js";
export * from "./schedule.js";
