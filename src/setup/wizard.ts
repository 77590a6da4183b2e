/**
 * The first-time setup wizard (spec section 1 "First-time setup wizard"): step 1 asks for API
 * keys when none is found (or, run as `coord --setup`, when the user wants to change them); step
 * 2 builds or picks a config. Esc goes back a question, also from step 2 to step 1; Ctrl+C stops
 * it, and each step writes its file only when it ends, atomically, so nothing is left half-written.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  detectProviderKeys,
  envFilePath,
  loadEnvFiles,
  PROJECT_CONFIG_PATH,
  type ProviderId,
  providersWithKeys,
} from "../config/index.js";
import { type ConfigChoice, chooseConfig } from "./config-step.js";
import { askForKeys } from "./key-step.js";
import { tildePath } from "./paths.js";
import { BACK, type Prompter, SetupCancelled } from "./prompter.js";

/** Options of {@link runSetupWizard}. */
export interface WizardOptions {
  prompter: Prompter;
  cwd: string;
  home: string;
  /** The process environment (`~/.config/coord/.env` is read under it). */
  env: Readonly<Record<string, string | undefined>>;
  /** True for `coord --setup`: offer to change keys even when some are found. */
  explicit: boolean;
  /** What follows the wizard, for its last line. */
  then: "chat" | "question";
  /** For the key check; default the global `fetch`. */
  fetch?: typeof fetch;
}

/**
 * Runs the wizard.
 * @returns the config to run (saved or not).
 * @throws SetupCancelled on Ctrl+C (its message says what was saved: only whole steps are), or
 *   Esc on the first question; ConfigError when a file cannot be written.
 */
export async function runSetupWizard(options: WizardOptions): Promise<ConfigChoice> {
  const { prompter, home } = options;
  const saved: string[] = [];
  prompter.intro(options.explicit ? "coord setup" : "Welcome to coord: let's set up your team");
  try {
    let env = await loadEnvFiles({ home, env: options.env });
    const found = detectProviderKeys(env);
    let askKeys = found.length === 0;
    if (askKeys) {
      prompter.info("No API key found in the environment or in ~/.config/coord/.env.");
    } else {
      prompter.info(`API keys found: ${found.map((key) => key.variable).join(", ")}.`);
      if (options.explicit) {
        const change = await prompter.confirm({
          message: "Add or change API keys?",
          initial: false,
        });
        if (change === BACK) throw new SetupCancelled();
        askKeys = change;
      }
    }
    let picked: ProviderId[] = [];
    for (;;) {
      if (askKeys) {
        const keys = await askForKeys({
          prompter,
          home,
          env,
          initial: picked,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
        if (keys === BACK) throw new SetupCancelled();
        picked = keys.providers;
        if (Object.keys(keys.written).length > 0) {
          saved.push(tildePath(envFilePath(home), home));
          env = await loadEnvFiles({ home, env: options.env });
        }
      }
      const choice = await chooseConfig({
        prompter,
        cwd: options.cwd,
        home,
        env,
        providers: providersWithKeys(env),
      });
      if (choice === BACK) {
        if (!askKeys) throw new SetupCancelled();
        continue;
      }
      const next = options.then === "chat" ? "Starting the chat…" : "Answering your question…";
      prompter.outro(
        choice.savedTo !== undefined
          ? `Done: ${whereUsed(choice.savedTo, options.cwd)} ${next}`
          : `${next} (nothing saved: \`coord --setup\` again to choose a default)`,
      );
      return choice;
    }
  } catch (error) {
    if (!(error instanceof SetupCancelled)) throw error;
    const what = [...new Set(saved)];
    throw new SetupCancelled(
      what.length === 0
        ? "setup cancelled; nothing was written"
        : `setup cancelled; ${what.join(" and ")} was saved, no config was written`,
    );
  }
}

/** Where plain `coord` now picks up the saved config (spec section 1 "Configuration discovery"). */
function whereUsed(savedTo: string, cwd: string): string {
  const project = join(cwd, PROJECT_CONFIG_PATH);
  if (savedTo === project) return "from now on, plain `coord` in this directory uses it.";
  return existsSync(project)
    ? `plain \`coord\` uses it where there is no ${PROJECT_CONFIG_PATH} (this directory has one).`
    : "from now on, plain `coord` uses it.";
}
