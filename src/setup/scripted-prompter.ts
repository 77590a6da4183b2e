/**
 * A {@link Prompter} that plays scripted answers (CONTRIBUTING.md rule 6: test doubles are product
 * code): each step names the kind of question and a part of its message, and fails loudly when the
 * flow asks something else, picks an option that is not offered, or leaves steps unplayed.
 */
import { BACK, type Back, type Choice, type Prompter, SetupCancelled } from "./prompter.js";

/** Ctrl+C as a scripted answer. */
export const CTRL_C: unique symbol = Symbol("ctrl-c");

/** One scripted answer. */
export interface ScriptedAnswer {
  ask: "select" | "multiselect" | "text" | "password" | "confirm";
  /** Text the question's message must contain. */
  message: string;
  /** The answer: a value (of a select's options), typed text, a boolean, BACK or CTRL_C. */
  answer?: unknown;
  /** For a select: pick the one enabled option whose label contains this, instead of `answer`. */
  choose?: string;
  /**
   * The validator must refuse `answer` with a message containing this; the same question is then
   * answered by the next step, as a user retyping.
   */
  refusedWith?: string;
}

/** A question as asked, for assertions. */
export interface AskedQuestion {
  ask: ScriptedAnswer["ask"];
  message: string;
  /** The options of a select or multiselect: label, hint and whether disabled. */
  choices: Array<{ label: string; hint?: string; disabled?: boolean; value: unknown }>;
  /**
   * What the question started on: a select's focused value, a multiselect's ticked ones, a text's
   * editable text.
   */
  initial?: unknown;
  /** A text's default: the answer to an empty submit, shown as a hint. */
  default?: string;
}

/** The scripted prompter with what it was asked and shown. */
export interface ScriptedPrompter extends Prompter {
  /** Every question asked, in order. */
  asked: AskedQuestion[];
  /** Every message shown (intro, notes, info, …), one string each. */
  shown: string[];
  /** @throws Error when scripted answers are left. */
  assertDone(): void;
}

/** Plays `answers` in order. */
export function createScriptedPrompter(answers: readonly ScriptedAnswer[]): ScriptedPrompter {
  const queue = [...answers];
  const asked: AskedQuestion[] = [];
  const shown: string[] = [];

  const next = (
    ask: ScriptedAnswer["ask"],
    message: string,
    choices: Choice<unknown>[] = [],
    initial?: unknown,
  ) => {
    asked.push({
      ask,
      message,
      choices: choices.map((choice) => ({ ...choice })),
      ...(initial !== undefined ? { initial } : {}),
    });
    const step = queue.shift();
    if (step === undefined) throw new Error(`no scripted answer left for ${ask} "${message}"`);
    if (step.ask !== ask || !message.includes(step.message)) {
      throw new Error(
        `scripted ${step.ask} "${step.message}" does not match the ${ask} asked: "${message}"`,
      );
    }
    if (step.answer === CTRL_C) throw new SetupCancelled();
    return step;
  };
  const pick = (step: ScriptedAnswer, choices: readonly Choice<unknown>[], message: string) => {
    if (step.answer === BACK) return BACK;
    const matches = (candidate: Choice<unknown>) =>
      step.choose !== undefined
        ? candidate.label.includes(step.choose) && candidate.disabled !== true
        : Object.is(candidate.value, step.answer);
    if (step.choose !== undefined && choices.filter(matches).length > 1) {
      throw new Error(`"${message}": several options match "${step.choose}"`);
    }
    const choice = choices.find(matches);
    if (choice === undefined || choice.disabled === true) {
      const offered = choices
        .filter((candidate) => candidate.disabled !== true)
        .map((candidate) => candidate.label);
      throw new Error(
        `"${message}": ${step.choose ?? String(step.answer)} is not offered (offered: ${offered.join(" | ")})`,
      );
    }
    return choice.value;
  };
  const typed = async (
    ask: "text" | "password",
    question: {
      message: string;
      initial?: string;
      default?: string;
      validate?: (value: string) => string | undefined;
    },
  ): Promise<string | Back> => {
    for (;;) {
      const step = next(ask, question.message, [], question.initial);
      if (question.default !== undefined) asked.at(-1)!.default = question.default;
      if (step.answer === BACK) return BACK;
      // As clack does: an empty submit is the default; typed text replaces it, never appends.
      const typedText = step.answer as string;
      const value =
        typedText === "" && question.default !== undefined ? question.default : typedText;
      const refusal = question.validate?.(value);
      if (step.refusedWith !== undefined) {
        if (refusal === undefined || !refusal.includes(step.refusedWith)) {
          throw new Error(
            `"${question.message}": expected ${JSON.stringify(value)} to be refused with "${step.refusedWith}", got ${JSON.stringify(refusal)}`,
          );
        }
        continue;
      }
      if (refusal !== undefined)
        throw new Error(`"${question.message}": ${JSON.stringify(value)} refused: ${refusal}`);
      return value;
    }
  };

  return {
    asked,
    shown,
    assertDone() {
      if (queue.length > 0) {
        throw new Error(
          `scripted answers left: ${queue.map((step) => `${step.ask} "${step.message}"`).join(", ")}`,
        );
      }
    },
    intro: (title) => shown.push(title),
    outro: (text) => shown.push(text),
    note: (text, title) => shown.push(title === undefined ? text : `${title}\n${text}`),
    info: (text) => shown.push(text),
    success: (text) => shown.push(text),
    warn: (text) => shown.push(text),
    select: async <T>(question: {
      message: string;
      choices: readonly Choice<T>[];
      initial?: T;
    }) => {
      const step = next(
        "select",
        question.message,
        question.choices as Choice<unknown>[],
        question.initial,
      );
      return pick(step, question.choices, question.message) as T | Back;
    },
    multiselect: async <T>(question: {
      message: string;
      choices: readonly Choice<T>[];
      initial?: readonly T[];
    }) => {
      const step = next(
        "multiselect",
        question.message,
        question.choices as Choice<unknown>[],
        question.initial,
      );
      if (step.answer === BACK) return BACK;
      const values = step.answer as unknown[];
      return values.map((value) =>
        pick({ ...step, answer: value }, question.choices as Choice<unknown>[], question.message),
      ) as T[];
    },
    text: (question) => typed("text", question),
    password: (question) => typed("password", question),
    confirm: async (question) => {
      const step = next("confirm", question.message);
      return step.answer === BACK ? BACK : (step.answer as boolean);
    },
    task: (message, work) => {
      shown.push(message);
      return work(new AbortController().signal);
    },
  };
}
