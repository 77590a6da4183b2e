/**
 * The questions the setup wizard and `--select` ask, behind one small interface: the flows run on
 * `@clack/prompts` in a terminal ({@link createClackPrompter}) and on a scripted prompter in tests
 * (`scripted-prompter.ts`). Esc answers {@link BACK} (the flow goes one question back); Ctrl+C
 * throws {@link SetupCancelled} from wherever it is pressed.
 */
import { CoordError, ExitCode } from "../errors.js";

/** The answer of a question left with Esc: go one question back. */
export const BACK: unique symbol = Symbol("back");
export type Back = typeof BACK;

/** Ctrl+C during the wizard or `--select`: nothing more is written. Exit code 4. */
export class SetupCancelled extends CoordError {
  readonly exitCode = ExitCode.interrupted;
  constructor(message = "setup cancelled") {
    super(message);
    this.name = "SetupCancelled";
  }
}

/** One option of a choice. */
export interface Choice<T> {
  value: T;
  label: string;
  /** Shown beside the option while it is focused. */
  hint?: string;
  /** Shown but not selectable. */
  disabled?: boolean;
}

/** Returns an error message for a bad value, or undefined to accept it. */
export type Validate = (value: string) => string | undefined;

/** The questions and messages of an interactive flow. */
export interface Prompter {
  /** The title line the flow starts with. */
  intro(title: string): void;
  /** The closing line. */
  outro(text: string): void;
  /** A boxed block of text (a config's YAML). */
  note(text: string, title?: string): void;
  info(text: string): void;
  success(text: string): void;
  warn(text: string): void;
  select<T>(question: {
    message: string;
    choices: readonly Choice<T>[];
    initial?: T;
  }): Promise<T | Back>;
  /** Several options; an empty answer is allowed. */
  multiselect<T>(question: {
    message: string;
    choices: readonly Choice<T>[];
    initial?: readonly T[];
  }): Promise<T[] | Back>;
  /**
   * Free text. `initial` is editable text the answer starts from; `default` is the answer when the
   * user submits nothing, shown as a dim hint (the placeholder), never as text typing appends to.
   * `validate` sees the default in place of an empty answer.
   */
  text(question: {
    message: string;
    placeholder?: string;
    initial?: string;
    default?: string;
    validate?: Validate;
  }): Promise<string | Back>;
  /** Like `text`, with the typed characters masked. */
  password(question: { message: string; validate?: Validate }): Promise<string | Back>;
  confirm(question: { message: string; initial?: boolean }): Promise<boolean | Back>;
  /**
   * Runs `work` while showing `message`; Ctrl+C aborts the signal it is given.
   * @throws SetupCancelled when Ctrl+C was pressed, once `work` has settled.
   */
  task<T>(message: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** The terminal the clack prompter talks to. */
export interface PromptStreams {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

/**
 * A {@link Prompter} on `@clack/prompts` (loaded lazily: it is needed only in a terminal). Clack
 * answers both Esc and Ctrl+C with its cancel symbol; the last key pressed tells them apart.
 */
export async function createClackPrompter(streams: PromptStreams): Promise<Prompter> {
  const clack = await import("@clack/prompts");
  const common = { input: streams.input, output: streams.output };
  let lastKey: { name?: string } | undefined;
  streams.input.on("keypress", (_text: string, key: { name?: string } | undefined) => {
    lastKey = key;
  });
  const answer = <T>(value: T | symbol): T | Back => {
    if (!clack.isCancel(value)) return value as T;
    if (lastKey?.name === "escape") return BACK;
    throw new SetupCancelled();
  };
  const options = <T>(choices: readonly Choice<T>[]) =>
    choices.map((choice) => ({
      value: choice.value,
      label: choice.label,
      ...(choice.hint !== undefined ? { hint: choice.hint } : {}),
      ...(choice.disabled === true ? { disabled: true } : {}),
    })) as Parameters<typeof clack.select<T>>[0]["options"];
  return {
    intro: (title) => clack.intro(title, common),
    outro: (text) => clack.outro(text, common),
    note: (text, title) => clack.note(text, title, common),
    info: (text) => clack.log.info(text, common),
    success: (text) => clack.log.success(text, common),
    warn: (text) => clack.log.warn(text, common),
    select: async <T>(question: { message: string; choices: readonly Choice<T>[]; initial?: T }) =>
      answer<T>(
        await clack.select<T>({
          ...common,
          message: question.message,
          options: options(question.choices),
          ...(question.initial !== undefined ? { initialValue: question.initial } : {}),
        }),
      ),
    multiselect: async <T>(question: {
      message: string;
      choices: readonly Choice<T>[];
      initial?: readonly T[];
    }) =>
      answer<T[]>(
        await clack.multiselect<T>({
          ...common,
          message: question.message,
          options: options(question.choices),
          required: false,
          ...(question.initial !== undefined ? { initialValues: question.initial } : {}),
        }),
      ),
    text: async (question) =>
      answer<string>(
        await clack.text({
          ...common,
          message: question.message,
          ...placeholderOf(question),
          ...(question.initial !== undefined ? { initialValue: question.initial } : {}),
          ...(question.default !== undefined ? { defaultValue: question.default } : {}),
          ...(question.validate
            ? { validate: wrapValidate(question.validate, question.default) }
            : {}),
        }),
      ),
    password: async (question) =>
      answer<string>(
        await clack.password({
          ...common,
          message: question.message,
          ...(question.validate ? { validate: wrapValidate(question.validate) } : {}),
        }),
      ),
    confirm: async (question) =>
      answer<boolean>(
        await clack.confirm({
          ...common,
          message: question.message,
          ...(question.initial !== undefined ? { initialValue: question.initial } : {}),
        }),
      ),
    // Not clack's spinner: it exits the process on Ctrl+C and Esc.
    task: async (message, work) => {
      clack.log.step(`${message}…`, common);
      // The terminal echoes `^C` on the step's line: end that line before the error follows.
      return runInterruptible(work, () => streams.output.write("\n"));
    },
  };
}

/**
 * Runs `work` with a signal that Ctrl+C (SIGINT, the terminal being out of raw mode between
 * questions) aborts.
 * @param onInterrupt called once, when SIGINT comes.
 * @throws SetupCancelled when SIGINT came, once `work` has settled.
 */
export async function runInterruptible<T>(
  work: (signal: AbortSignal) => Promise<T>,
  onInterrupt?: () => void,
): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    if (!controller.signal.aborted) onInterrupt?.();
    controller.abort(new SetupCancelled());
  };
  process.on("SIGINT", onSigint);
  try {
    const result = await work(controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted) throw new SetupCancelled();
      throw error;
    });
    if (controller.signal.aborted) throw new SetupCancelled();
    return result;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** The hint shown in an empty field: the default when there is one (`default: …`), else the example. */
function placeholderOf(question: { placeholder?: string; default?: string }): {
  placeholder?: string;
} {
  if (question.default !== undefined) return { placeholder: question.default };
  return question.placeholder !== undefined ? { placeholder: question.placeholder } : {};
}

/** Clack's validator: an empty answer with a default is the default. */
function wrapValidate(
  validate: Validate,
  fallback?: string,
): (value: string | undefined) => string | undefined {
  return (value) =>
    validate((value ?? "") === "" && fallback !== undefined ? fallback : (value ?? ""));
}
