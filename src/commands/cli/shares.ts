/** `coord shares list|delete` (spec section 4.2; docs/sharing.md "coord shares list|delete"). */
import type { Command } from "commander";
import { positiveInteger } from "../integer-options.js";
import { type CommandModule, processIO } from "./define.js";

/** `coord shares list`: your shared runs. */
const listCommand: CommandModule<{ limit?: number; json?: boolean }, []> = {
  name: "list",
  description: "your shared runs: id, date, question, share URL",
  isDefault: true,
  declare: (command: Command) =>
    void command
      .option(
        "--limit <n>",
        "look through your N most recent gists (default 100)",
        positiveInteger("--limit"),
      )
      .option("--json", "a JSON array of {id, date, question, url, gist_url}"),
  async run(_args, options, context) {
    const { listSharesCommand } = await import("../shares.js");
    return listSharesCommand(
      { limit: options.limit ?? 100, json: options.json === true },
      processIO(context.version),
    );
  },
};

/** `coord shares delete GIST_ID`: one shared run, after confirmation. */
const deleteCommand: CommandModule<{ yes?: boolean }, [string]> = {
  name: "delete",
  description: "delete one shared run after confirmation",
  declare: (command: Command) =>
    void command
      .argument("<gist_id>", "the gist id (or its share URL or gist URL)")
      .option("--yes", "do not ask (needed when stdin is not a terminal)"),
  async run([target], options, context) {
    const { deleteShareCommand } = await import("../shares.js");
    return deleteShareCommand({ target, yes: options.yes === true }, processIO(context.version));
  },
};

export const sharesCommand: CommandModule = {
  name: "shares",
  description: "list (default) or delete the runs you shared with coord export (via gh)",
  declare: (command: Command) => void command.helpCommand(false),
  subcommands: [listCommand, deleteCommand],
};
