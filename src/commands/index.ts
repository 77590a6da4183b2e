/**
 * The commands' public API for `cli.ts`: the command modules (src/commands/cli/, one per
 * command) and option parsers. Each command's handler imports what it runs when it runs.
 */
export { positiveInteger } from "./integer-options.js";
export { addCommand, assemble, type CliContext, type CommandModule } from "./cli/define.js";
export { DEFAULT_VIEWER_PORT } from "./cli/viewer.js";
