/**
 * The memory-sessions registry's public API (docs/architecture.md "Layers"):
 * `~/.coord/sessions.json` and the turn records beside it, under a cross-process lock, written
 * atomically by the store's one policy; the archive of old sessions; whether a run log's writer
 * still lives. The pure view model these records are made from is src/session/.
 */
export {
  createSessionStore,
  historyFromTurns,
  latestPersonas,
  type HistoryMessage,
  type SessionRecord,
  SessionsFileError,
  type SessionStatus,
  type SessionStore,
  type TurnRecord,
} from "./sessions.js";
export { FileLockError } from "./file-lock.js";
export { type LogWriterStatus, logWriterStatus } from "./log-writer-status.js";
export { turnRecordFromState } from "./turn-record.js";
