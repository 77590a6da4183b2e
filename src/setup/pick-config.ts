/**
 * The hierarchical config picker of `--select` and of the wizard's "Browse ready-made configs"
 * (spec section 2 "Configuration sources offered by `--select`"): a category, then a config in
 * it, each shown with its agents and models. Esc on a config list goes back to the categories.
 */
import { type ConfigCategory, type ConfigEntry, describeAgents } from "../config/index.js";
import { BACK, type Back, type Choice, type Prompter } from "./prompter.js";

/** The "back" option at the end of each config list (Esc does the same). */
const BACK_TO_CATEGORIES = "\u0000back";

/**
 * Asks for a category, then a config of it.
 * @param options.message the first question (default "Which configs?").
 * @returns the chosen entry, or BACK when Esc was pressed on the categories.
 */
export async function pickConfig(
  prompter: Prompter,
  categories: readonly ConfigCategory[],
  options: { message?: string } = {},
): Promise<ConfigEntry | Back> {
  let category: ConfigCategory | undefined;
  for (;;) {
    const chosen = await prompter.select<ConfigCategory>({
      message: options.message ?? "Which configs? (Esc goes back)",
      choices: categories.map((candidate) => ({
        value: candidate,
        label: candidate.label,
        hint: `${candidate.where} · ${count(candidate.entries.length)}`,
      })),
      ...(category !== undefined ? { initial: category } : {}),
    });
    if (chosen === BACK) return BACK;
    category = chosen;
    const choices: Array<Choice<ConfigEntry | typeof BACK_TO_CATEGORIES>> = [
      ...chosen.entries.map(entryChoice),
      { value: BACK_TO_CATEGORIES, label: "← Back to the categories" },
    ];
    const entry = await prompter.select({
      message: `${chosen.label}: which config? (Esc goes back)`,
      choices,
    });
    if (entry === BACK || entry === BACK_TO_CATEGORIES) continue;
    return entry;
  }
}

/** A config as an option: its name with agents and models; the description as the hint. */
export function entryChoice(entry: ConfigEntry): Choice<ConfigEntry> {
  if (entry.error !== undefined) {
    return { value: entry, label: `${entry.name} — cannot run: ${entry.error}`, disabled: true };
  }
  return {
    value: entry,
    label: `${entry.name} — ${describeAgents(entry.agents)}`,
    hint: entry.description ?? entry.path,
  };
}

function count(entries: number): string {
  return `${entries} config${entries === 1 ? "" : "s"}`;
}
