/**
 * Secret redaction for what the run log writes down. The redactor itself is the process-wide one
 * in `src/redact.ts` (every output path uses it); re-exported here for the store's importers.
 */
export { REDACTED, redact, redactCliArgs, redactSecrets, redactStrings } from "../redact.js";
