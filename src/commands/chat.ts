/**
 * `coord` with a config and no question: the interactive multi-turn chat (spec section 1).
 * Resolves the config (including the default-path discovery), opens the memory session
 * (`--session-id` / `session_id:` continue one), then runs the chat loop
 * (chat-controller.ts) behind one of two front-ends:
 *
 * - the Ink app (src/ui/terminal/chat-app.tsx) when stdin and stdout are a terminal with raw
 *   mode, `--no-display` is not given and `ui.display_type` is `rich_terminal`;
 * - otherwise a line-based prompt (node:readline) with trace lines on stderr.
 *
 * @returns the exit code: 0 after /quit or Ctrl+D, 4 when Ctrl+C ended it while (or right after)
 *   cancelling a turn, or when SIGHUP (the terminal closed) or SIGTERM ended it (the running turn
 *   is stopped and the session closed as `interrupted`).
 */
import { createInterface } from "node:readline";
import { ConfigError, ExitCode } from "../errors.js";
import { type CwdContext, openSession, prepareRun, type RunFlags } from "../runner/index.js";
import { traceSubscriber } from "../ui/plain/index.js";
import { openCommandTracing } from "./command-tracing.js";
import type { ChatBlock } from "../ui/terminal/index.js";
import { inkCanDraw } from "./ink-can-draw.js";
import { createChatController, type ChatController } from "./chat-controller.js";
import type { CommandIO } from "./io.js";

/** Flags of the chat. */
export interface ChatFlags extends RunFlags {
  display: boolean;
  logs: boolean;
  debug: boolean;
  sessionId?: string | undefined;
  cwdContext?: CwdContext | undefined;
  /** `--tracing` (also `COORD_TRACING_ENABLED=true`): each turn traced. */
  tracing?: boolean | undefined;
}

/** The command's IO plus the terminal's input. */
export interface ChatIO extends CommandIO {
  stdin: NodeJS.ReadStream;
}

/**
 * Runs the chat until /quit, Ctrl+D or Ctrl+C twice.
 * @throws ConfigError (exit 1) for a bad config or flags, or an unknown session id.
 */
export async function runChat(flags: ChatFlags, io: ChatIO): Promise<number> {
  if (io.stdin.isTTY !== true) {
    throw new ConfigError(
      'no question: pass one (coord "question", or pipe it on stdin), or run coord in a terminal for the interactive chat',
    );
  }
  // Bad flags, config or --single-agent: exit 1 before the chat opens.
  const prepared = await prepareRun(flags, io);
  for (const warning of prepared.warnings) io.stderr.write(`coord: warning: ${warning}\n`);
  const resolved = { config: prepared.baseConfig, path: prepared.configPath };
  const { env } = prepared;
  // Tracing warnings go to stderr until the chat shows them, and again once it has ended.
  let showWarning: ((message: string) => void) | undefined;
  const tracing = await openCommandTracing(flags.tracing, env, io, (message) => {
    if (showWarning) showWarning(message);
    else io.stderr.write(`coord: warning: ${message}\n`);
  });
  const session = await openSession({
    home: io.home,
    sessionId: flags.sessionId,
    config: resolved.config,
    configPath: resolved.path,
    cwd: io.cwd,
    kind: "interactive",
  });
  const ink =
    flags.display &&
    resolved.config.ui.display_type === "rich_terminal" &&
    inkCanDraw(io.stdout) &&
    io.stdin.isTTY === true &&
    typeof io.stdin.setRawMode === "function";
  const trace = traceSubscriber((line) => io.stderr.write(`${line}\n`), { maxTextLength: 400 });
  const chat = createChatController({
    config: resolved.config,
    configPath: resolved.path,
    session,
    flags,
    cwdContext: flags.cwdContext ?? "off",
    env,
    cwd: io.cwd,
    home: io.home,
    version: io.version,
    argv: io.argv,
    tracing,
    ...(ink
      ? {}
      : {
          onRunEvent: trace,
        }),
  });
  greet(chat, session, resolved.path);
  showWarning = (message) => chat.print({ kind: "error", text: `warning: ${message}` });
  try {
    return await (ink ? runInk(chat, io) : runPlain(chat, io));
  } finally {
    showWarning = undefined;
    await tracing?.shutdown();
  }
}

function greet(
  chat: ChatController,
  session: Awaited<ReturnType<typeof openSession>>,
  configPath: string | undefined,
): void {
  const lines = [
    `coord chat · ${configPath ?? "quick setup"} · session ${session.record.id}`,
    "Ask the team a question; /help lists commands.",
  ];
  if (session.continued) {
    const last = session.turns.at(-1);
    lines.push(
      `Continuing: ${session.turns.length} earlier turn${session.turns.length === 1 ? "" : "s"}, ${session.history.length / 2} answered and in the history${last ? `; last question: ${last.question}` : ""}`,
    );
  }
  chat.print({ kind: "summary", text: lines.join("\n") });
}

async function runInk(chat: ChatController, io: ChatIO): Promise<number> {
  const { mountChatApp } = await import("../ui/terminal/chat-app.js");
  const instance = mountChatApp({
    store: chat.store,
    actions: chat.actions,
    now: Date.now,
    stdout: io.stdout as NodeJS.WriteStream,
    stdin: io.stdin,
  });
  // Ink unmounts itself only on a render error: report it and end the chat (exit 2).
  let failed = false;
  instance.waitUntilExit().catch((error: unknown) => {
    failed = true;
    io.stderr.write(
      `coord: internal error in the terminal UI (please report it): ${(error as Error).stack ?? String(error)}\n`,
    );
    chat.actions.quit();
  });
  // A signal from outside (kill -INT) acts like the key.
  const onSigint = () => chat.actions.interrupt();
  process.on("SIGINT", onSigint);
  const stopHangup = onHangup(chat);
  try {
    const code = await chat.done;
    // Let Ink draw the last state, then restore the terminal (raw mode off, cursor shown).
    await new Promise((resolve) => setTimeout(resolve, 50));
    instance.unmount();
    await instance.waitUntilExit().catch(() => undefined);
    return failed ? ExitCode.execution : code;
  } finally {
    process.off("SIGINT", onSigint);
    stopHangup();
  }
}

async function runPlain(chat: ChatController, io: ChatIO): Promise<number> {
  const rl = createInterface({ input: io.stdin, output: io.stdout, prompt: "› " });
  let printed = 0;
  let promptedAt = -1;
  let promptPending = false;
  // Prompt once the store settles idle with new output (a turn's question block comes just
  // before it turns busy: prompting then would put "› " in front of the run's output).
  const promptWhenIdle = () => {
    if (promptPending) return;
    promptPending = true;
    setImmediate(() => {
      promptPending = false;
      const view = chat.store.get();
      if (view.busy || view.farewell !== null || promptedAt === printed) return;
      promptedAt = printed;
      rl.prompt();
    });
  };
  const show = () => {
    const view = chat.store.get();
    for (const block of view.blocks.slice(printed))
      if (block.kind !== "question") io.stdout.write(`${plainBlock(block)}\n`);
    printed = view.blocks.length;
    if (view.farewell !== null) io.stdout.write(`${view.farewell}\n`);
    else promptWhenIdle();
  };
  const unsubscribe = chat.store.subscribe(show);
  show();
  rl.on("line", (line) => {
    if (line.trim() === "") return rl.prompt();
    chat.actions.submit(line);
  });
  rl.on("SIGINT", () => {
    chat.actions.interrupt();
    const view = chat.store.get();
    if (view.exitArmed) io.stdout.write("\n(Ctrl+C again to quit)\n");
  });
  rl.on("close", () => chat.actions.quit());
  const stopHangup = onHangup(chat);
  try {
    return await chat.done;
  } finally {
    stopHangup();
    unsubscribe();
    rl.close();
  }
}

/**
 * SIGHUP (the terminal closed) and SIGTERM end the chat: the running turn is stopped and the
 * session closed as `interrupted` (exit 4). @returns a function that removes the listeners.
 */
function onHangup(chat: ChatController): () => void {
  const hangup = () => void chat.hangup();
  for (const signal of ["SIGHUP", "SIGTERM"] as const) process.on(signal, hangup);
  return () => {
    for (const signal of ["SIGHUP", "SIGTERM"] as const) process.off(signal, hangup);
  };
}

function plainBlock(block: ChatBlock): string {
  switch (block.kind) {
    case "question":
      return `\n› ${block.text}`;
    case "answer":
      return `── ${block.title ?? "Final answer"} ──\n${block.text}`;
    case "error":
      return `coord: ${block.text}`;
    default:
      return block.text;
  }
}
