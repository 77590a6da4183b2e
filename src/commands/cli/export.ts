/** `coord export [LOG_NAME|PATH] …` (spec section 4.2; docs/sharing.md "coord export"). */
import type { Command } from "commander";
import { ConfigError } from "../../errors.js";
import { type CommandModule, processIO } from "./define.js";

/** `coord export`'s options as commander parses them. */
export interface ExportOptions {
  turns?: string;
  workspace: boolean;
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
}

export const exportCommand: CommandModule<ExportOptions, [string | undefined]> = {
  name: "export",
  description:
    "share a run log as a secret GitHub gist (via gh) and print its Share URL (docs/sharing.md)",
  declare: (command: Command) =>
    void command
      .argument(
        "[log]",
        "a log name (log_…) in agent_outputs/ (or COORD_LOG_DIR) or a path to a log, turn or attempt directory (default: the most recent run)",
      )
      .option("--turns <which>", "all (default), latest, N or N-M")
      .option("--no-workspace", "leave out workspace files (sub-directories of each attempt)")
      .option("--dry-run", "list what would be uploaded and skipped; upload nothing")
      .option("--yes", "do not ask before uploading (needed when stdin is not a terminal)")
      .option("--json", "one JSON document on stdout (shape: docs/sharing.md)")
      .addHelpText(
        "after",
        `
Needs the GitHub CLI, logged in: gh auth login. Secrets are redacted in everything uploaded.
The link is {viewer_url}/?gist=<id>: COORD_VIEWER_URL, sharing.viewer_url in the config, else
https://coord-cli.github.io/share.
Examples:
  coord export                                   the most recent run
  coord export --dry-run                         what would be uploaded
  coord export log_20250101_120000 --turns 2-3 --yes`,
      ),
  async run([target], options, context) {
    const { exportCommand } = await import("../export.js");
    const { parseTurnSpec } = await import("../../logs/share-bundle.js");
    let turns;
    try {
      turns = options.turns === undefined ? undefined : parseTurnSpec(options.turns);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    return exportCommand(
      {
        target,
        turns,
        workspace: options.workspace,
        dryRun: options.dryRun === true,
        yes: options.yes === true,
        json: options.json === true,
      },
      processIO(context.version),
    );
  },
};
