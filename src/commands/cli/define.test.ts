/**
 * The one command shape (define.ts): a module's declared options reach its handler typed and
 * parsed, its returned exit code goes to the sink (undefined leaves it alone), sub-commands keep
 * their order and default, and assembling a program or printing its help runs no handler.
 */
import { Command } from "commander";
import { describe, expect, test } from "vitest";
import { addCommand, assemble, type CommandModule, processIO } from "./define.js";
import { positiveInteger } from "../integer-options.js";

interface GreetOptions {
  loud?: boolean;
  times: number;
  color: boolean;
}

/** A context the handlers record their calls in. */
interface Recorder {
  calls: Array<{ name: string; args: unknown[]; options: object }>;
}

function greet(code: number | undefined): CommandModule<GreetOptions, [string], Recorder> {
  return {
    name: "greet",
    description: "say hello",
    declare: (command) =>
      void command
        .argument("<who>", "whom to greet")
        .option("--loud", "shout")
        .option("--times <n>", "how often", positiveInteger("--times"), 1)
        .option("--no-color", "plain"),
    async run(args, options, context) {
      context.calls.push({ name: "greet", args, options });
      return code;
    },
  };
}

/** A program of `modules` whose handlers record into the returned context and codes. */
function program(modules: readonly CommandModule<object, unknown[], Recorder>[]) {
  const context: Recorder = { calls: [] };
  const codes: number[] = [];
  const root = new Command("tool").exitOverride().configureOutput({
    writeOut: () => undefined,
    writeErr: () => undefined,
  });
  for (const module of modules) addCommand(root, module, context, (code) => codes.push(code));
  return { root, context, codes };
}

describe("command modules", () => {
  test("the handler gets the arguments and commander's parsed options; its code goes to the sink", async () => {
    const { root, context, codes } = program([greet(3)]);
    await root.parseAsync(["greet", "Ann", "--loud", "--times", "2"], { from: "user" });
    expect(context.calls).toEqual([
      { name: "greet", args: ["Ann"], options: { loud: true, times: 2, color: true } },
    ]);
    expect(codes).toEqual([3]);
  });

  test("a handler returning undefined leaves the exit code alone", async () => {
    const { root, context, codes } = program([greet(undefined)]);
    await root.parseAsync(["greet", "Bo", "--no-color"], { from: "user" });
    expect(context.calls[0]?.options).toEqual({ times: 1, color: false });
    expect(codes).toEqual([]);
  });

  test("an option's parser refuses a bad value before the handler runs", async () => {
    const { root, context, codes } = program([greet(0)]);
    await expect(
      root.parseAsync(["greet", "Cy", "--times", "0"], { from: "user" }),
    ).rejects.toMatchObject({ code: "commander.invalidArgument" });
    expect(context.calls).toEqual([]);
    expect(codes).toEqual([]);
  });

  test("sub-commands keep their order and their default; assembling and --help run nothing", async () => {
    const record =
      (name: string): CommandModule<object, [], Recorder>["run"] =>
      async (args, options, context) => {
        context.calls.push({ name, args, options });
        return 0;
      };
    const group: CommandModule<object, [], Recorder> = {
      name: "shares",
      description: "a group",
      subcommands: [
        { name: "list", description: "the default", isDefault: true, run: record("list") },
        { name: "delete", description: "another", run: record("delete") },
      ],
    };
    const { root, context, codes } = program([group]);
    const shares = root.commands[0]!;
    expect(shares.commands.map((command) => command.name())).toEqual(["list", "delete"]);
    expect(shares.helpInformation()).toContain("delete");
    expect(context.calls).toEqual([]);
    await root.parseAsync(["shares"], { from: "user" });
    expect(context.calls.map((call) => call.name)).toEqual(["list"]);
    expect(codes).toEqual([0]);
  });

  test("assemble declares a module on an existing command (the root program)", async () => {
    const context: Recorder = { calls: [] };
    const codes: number[] = [];
    const root = new Command("tool").exitOverride();
    assemble(root, greet(1), context, (code) => codes.push(code));
    await root.parseAsync(["Dee"], { from: "user" });
    expect(context.calls).toEqual([
      { name: "greet", args: ["Dee"], options: { times: 1, color: true } },
    ]);
    expect(codes).toEqual([1]);
  });
});

describe("processIO", () => {
  test("is this process's streams, environment, directory and arguments, read when called", () => {
    const io = processIO("9.9.9");
    expect(io.stdout).toBe(process.stdout);
    expect(io.stderr).toBe(process.stderr);
    expect(io.stdin).toBe(process.stdin);
    expect(io.env).toBe(process.env);
    expect(io.cwd).toBe(process.cwd());
    expect(io.argv).toEqual(process.argv.slice(2));
    expect(io.platform).toBe(process.platform);
    expect(io.version).toBe("9.9.9");
    if (process.env.HOME !== undefined) expect(io.home).toBe(process.env.HOME);
  });
});
