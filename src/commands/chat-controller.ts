/**
 * The interactive chat's loop, independent of the screen (spec section 1 "multi-turn
 * interactive chat mode"; docs/terminal.md "The chat"): each question is a turn — a coordination
 * run that sees the earlier turns as conversation history, logged as `turn_<n>` in the session's
 * log directory and recorded in the memory session. Slash commands, Ctrl+C, Ctrl+P and Ctrl+R
 * arrive as {@link ChatActions}; what to show is kept in a {@link ChatViewState} store that the Ink
 * app (or the plain front-end) renders.
 */
import type { Config } from "../config/index.js";
import { ConfigError, ExitCode } from "../errors.js";
import type { CoordEvent } from "../events/index.js";
import {
  chooseMode,
  type CwdContext,
  describeCwdContext,
  nextCwdContext,
  closeSession,
  openSession,
  type OpenSession,
  type RunFlags,
  runTurn,
  withCwdContext,
} from "../runner/index.js";
import { initialRunState, type RunState, wallTimeMs } from "../session/index.js";
import {
  type ChatActions,
  type ChatBlock,
  type ChatViewState,
  createStateStore,
  type StateStore,
} from "../ui/terminal/index.js";
import {
  configText,
  helpText,
  inspectText,
  parseSlashCommand,
  sessionsText,
  statusText,
} from "./chat-commands.js";
import type { Tracing } from "../tracing/index.js";
import { failureLine } from "../ui/plain/index.js";

/** What the controller needs from the command. */
export interface ChatControllerOptions {
  config: Config;
  configPath: string | undefined;
  session: OpenSession;
  flags: RunFlags & { logs: boolean; debug: boolean };
  cwdContext: CwdContext;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  version: string;
  argv: readonly string[];
  /** Traces each turn when on (`--tracing`, `COORD_TRACING_ENABLED`). */
  tracing?: Tracing | undefined;
  /** Every event of a running turn (the plain front-end prints trace lines from them). */
  onRunEvent?: (event: CoordEvent, state: RunState) => void;
  /** Epoch ms; default Date.now. */
  now?: () => number;
}

/** A running chat. */
export interface ChatController {
  store: StateStore<ChatViewState>;
  actions: ChatActions;
  /** Resolves with the exit code once the chat ends (the session is closed by then). */
  done: Promise<number>;
  /** Prints blocks (the greeting, notices). */
  print(...blocks: Array<Omit<ChatBlock, "id">>): void;
  /** The terminal went away (SIGHUP): end as interrupted. */
  hangup(): Promise<void>;
}

/** Creates the chat; it waits for the first line. */
export function createChatController(options: ChatControllerOptions): ChatController {
  const now = options.now ?? Date.now;
  let session = options.session;
  let cwdContext = options.cwdContext;
  let refine = options.flags.quick !== true;
  let abort: AbortController | undefined;
  let lastTurnInterrupted = false;
  let ended = false;
  /** The turn being asked, if any (settles once it is recorded and shown). */
  let asking: Promise<void> | undefined;
  let nextBlockId = 1;
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));

  const team = (): string => {
    try {
      const { agentIndexes } = chooseMode(options.config, { ...options.flags, quick: !refine });
      const ids = agentIndexes.map((index) => options.config.agents[index]!.id);
      return ids.length === 1 ? `${ids[0]} only` : `${ids.length} agents`;
    } catch {
      return `${options.config.agents.length} agents`;
    }
  };
  const status = (): ChatViewState["status"] => ({
    sessionId: session.record.id,
    turns: session.record.turns,
    historyMessages: session.history.length,
    refine,
    cwdContext: describeCwdContext(cwdContext),
    team: team(),
  });
  const store = createStateStore<ChatViewState>({
    blocks: [],
    run: null,
    busy: false,
    cancelling: false,
    exitArmed: false,
    status: status(),
    farewell: null,
  });
  const patch = (change: Partial<ChatViewState>) =>
    store.set({ ...store.get(), status: status(), ...change });
  const print = (...blocks: Array<Omit<ChatBlock, "id">>) =>
    patch({
      blocks: [...store.get().blocks, ...blocks.map((block) => ({ ...block, id: nextBlockId++ }))],
    });

  const finish = async (code: number) => {
    if (ended) return;
    ended = true;
    abort?.abort();
    // The stopped turn is recorded (interrupted) before the session closes, as in every door.
    await asking;
    await closeSession(session, code === ExitCode.interrupted ? "interrupted" : "completed").catch(
      () => undefined,
    );
    const { id, turns } = session.record;
    patch({
      busy: false,
      run: null,
      farewell:
        turns === 0
          ? `Session ${id} ended with no turns.`
          : `Session ${id} saved (${turns} turn${turns === 1 ? "" : "s"}). Continue it: coord --session-id ${id}`,
    });
    resolveDone(code);
  };

  /** Problems that do not stop the turn, shown as the chat shows tracing's warnings. */
  const warn = (message: string) => {
    if (!ended) print({ kind: "error", text: `warning: ${message}` });
  };

  /** Asks the team: one turn of the session (src/runner/turn.ts), then what to show of it. */
  async function ask(question: string): Promise<void> {
    const config = withCwdContext(options.config, cwdContext, options.cwd);
    let choice: ReturnType<typeof chooseMode>;
    try {
      choice = chooseMode(config, { ...options.flags, quick: !refine });
    } catch (error) {
      print({ kind: "error", text: (error as Error).message });
      return;
    }
    print({ kind: "question", text: question });
    abort = new AbortController();
    patch({ busy: true, cancelling: false, exitArmed: false, run: initialRunState() });
    try {
      const running = await runTurn({
        prepared: { config, configPath: options.configPath, env: options.env, ...choice },
        question,
        session,
        io: options,
        logs: options.flags.logs,
        debug: options.flags.debug,
        outputFile: options.flags.outputFile,
        tracing: options.tracing,
        signal: abort.signal,
        subscribers: [
          (event, state) => {
            options.onRunEvent?.(event, state);
            if (!ended) patch({ run: state });
          },
        ],
        warn,
        now,
      });
      const result = await running.finished;
      if (ended) return;
      lastTurnInterrupted = result.state.endReason === "interrupted";
      print(...turnBlocks(result.state, result.turn, result.logDir, options.cwd, result.traceId));
      if (result.outputError) {
        print({
          kind: "error",
          text: `cannot write --output-file ${options.flags.outputFile}: ${result.outputError.message}`,
        });
      }
    } catch (error) {
      if (ended) return;
      print({
        kind: "error",
        text:
          error instanceof ConfigError ? error.message : `turn failed: ${(error as Error).message}`,
      });
    } finally {
      abort = undefined;
      if (!ended) patch({ busy: false, cancelling: false, run: null });
    }
  }

  async function command(line: string): Promise<boolean> {
    const parsed = parseSlashCommand(line);
    if (!parsed) return false;
    if (parsed.name !== "quit") print({ kind: "question", text: line });
    switch (parsed.name) {
      case "help":
        print({ kind: "info", text: helpText() });
        break;
      case "quit":
        await finish(ExitCode.success);
        break;
      case "reset": {
        await closeSession(session, "completed");
        session = await openSession({
          home: options.home,
          sessionId: undefined,
          config: { ...options.config, session_id: undefined },
          configPath: options.configPath,
          cwd: options.cwd,
          kind: "interactive",
        });
        lastTurnInterrupted = false;
        print({ kind: "info", text: `History cleared: new session ${session.record.id}.` });
        break;
      }
      case "status":
        print({
          kind: "info",
          text: statusText({
            session: session.record,
            historyMessages: session.history.length,
            config: options.config,
            configPath: options.configPath,
            team: team(),
            refine,
            cwdContext: describeCwdContext(cwdContext),
            cwd: options.cwd,
          }),
        });
        break;
      case "config":
        print({ kind: "info", text: configText(options.config, options.configPath) });
        break;
      case "inspect": {
        const result = inspectText(session.turns, parsed.turn);
        print({ kind: result.ok ? "info" : "error", text: result.text });
        break;
      }
      case "sessions":
        print({ kind: "info", text: sessionsText(await session.store.list()) });
        break;
      case "unknown":
        print({ kind: "error", text: parsed.problem });
        break;
    }
    return true;
  }

  const actions: ChatActions = {
    submit(line) {
      if (ended || store.get().busy) return;
      patch({ exitArmed: false });
      void (async () => {
        try {
          if (await command(line)) return;
          asking = ask(line);
          await asking;
        } catch (error) {
          print({ kind: "error", text: (error as Error).message });
        }
      })();
    },
    interrupt() {
      const view = store.get();
      if (view.busy && !view.cancelling) {
        patch({ cancelling: true });
        abort?.abort();
      } else if (view.busy || view.exitArmed) {
        void finish(view.busy || lastTurnInterrupted ? ExitCode.interrupted : ExitCode.success);
      } else {
        patch({ exitArmed: true });
      }
    },
    cycleCwdContext() {
      cwdContext = nextCwdContext(cwdContext);
      patch({});
    },
    toggleRefine() {
      refine = !refine;
      patch({});
    },
    quit() {
      void finish(ExitCode.success);
    },
  };
  return { store, actions, done, print, hangup: () => finish(ExitCode.interrupted) };
}

/** What is printed after a turn: a summary line, then the answer or what went wrong. */
function turnBlocks(
  state: RunState,
  turn: number,
  logDir: string | undefined,
  cwd: string,
  traceId: string | undefined,
): Array<Omit<ChatBlock, "id">> {
  const seconds = `${(wallTimeMs(state) / 1000).toFixed(1)} s`;
  const winner = state.winner;
  const parts = [
    `turn ${turn}`,
    ...(winner
      ? [
          `winner ${winner.agentId ?? winner.anonId} (${winner.label}${winner.basis === "votes" ? `, ${winner.votes}/${state.agents.length} votes` : ""})`,
        ]
      : []),
    `${state.answers.length} answer${state.answers.length === 1 ? "" : "s"}`,
    seconds,
    ...(logDir ? [`log ${logDir.startsWith(cwd) ? logDir.slice(cwd.length + 1) : logDir}`] : []),
    ...(traceId !== undefined ? [`trace ${traceId}`] : []),
  ];
  const summary = { kind: "summary" as const, text: parts.join(" · ") };
  if (state.endReason === "completed" && state.finalAnswer !== null) {
    const presenter = state.presenterId ?? winner?.agentId ?? "team";
    return [
      {
        kind: "answer",
        title: `${presenter}${state.finalAnswerLabel ? ` (${state.finalAnswerLabel})` : ""}`,
        text: state.finalAnswer.trim(),
      },
      summary,
    ];
  }
  // The same line, with advice that fits the cause, as the one-shot run prints (ui/plain).
  const why =
    state.endReason === "interrupted"
      ? "Turn cancelled: its partial work is in the log and /inspect; ask again or go on."
      : `Turn ${state.endReason === "timeout" ? "timed out" : "failed"}: ${failureLine(state)}.`;
  return [{ kind: "error", text: why }, summary];
}
