/**
 * The Ink terminal UI's light public API: the chat's view-state types and store. The Ink components (`live-run.tsx`, `chat-app.tsx`) are imported lazily, as they load Ink and React.
 */
export { type ChatActions, type ChatBlock, type ChatViewState } from "./chat-view.js";
export { createStateStore, type StateStore } from "./state-store.js";
export type { ViewerActivity, ViewerFrame } from "./viewer-app.js";
