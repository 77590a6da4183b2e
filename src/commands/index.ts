/**
 * The commands' public API for `cli.ts`: the sub-command wiring and option parsers. Each command module is imported lazily by its action.
 */
export { positiveInteger } from "./integer-options.js";
export { addEvalCommand, addLogsCommand, addServeCommand } from "./subcommands.js";
export {
  addExportCommand,
  addSharesCommand,
  addViewerCommand,
  DEFAULT_VIEWER_PORT,
} from "./share-subcommands.js";
