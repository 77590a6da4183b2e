/** Version of the `coord logs … --json` shapes (docs/logs.md); bumped on an incompatible change. */
export const LOGS_JSON_VERSION = 1;
