/**
 * Step 2 of the setup wizard (spec section 1 "First-time setup wizard"): browse the ready-made
 * configs ("Save as default?") or build one from a template (its YAML shown, then saved as the
 * global default or the project's config). A file is written only at the end of the step,
 * atomically.
 */
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import {
  type ConfigEntry,
  globalConfigPath,
  listConfigSources,
  PROJECT_CONFIG_PATH,
  type ProviderInfo,
} from "../config/index.js";
import { ConfigError } from "../errors.js";
import { pickConfig } from "./pick-config.js";
import { BACK, type Back, type Prompter } from "./prompter.js";
import { tildePath } from "./paths.js";
import { askTemplate } from "./template-step.js";
import type { TemplateId } from "./templates.js";

/** What step 2 chose. */
export interface ConfigChoice {
  /** What `--config` takes to run it: a path, or `@examples/NAME` for an unsaved example. */
  configArg: string;
  /** The file written, when one was (the global default or `.coord/config.yaml`). */
  savedTo: string | undefined;
}

/** What step 2 needs. */
export interface ConfigStepOptions {
  prompter: Prompter;
  cwd: string;
  home: string;
  /** The environment with `~/.config/coord/.env` merged in. */
  env: Readonly<Record<string, string | undefined>>;
  /** Providers whose keys were found. */
  providers: readonly ProviderInfo[];
}

type Way = "template" | "browse";

/**
 * Lets the user build or pick a config.
 * @returns the choice, or BACK when Esc was pressed on the first question.
 * @throws SetupCancelled on Ctrl+C; ConfigError when the config cannot be written.
 */
export async function chooseConfig(options: ConfigStepOptions): Promise<ConfigChoice | Back> {
  const { prompter } = options;
  let way: Way | undefined;
  let template: TemplateId | undefined;
  for (;;) {
    const chosen = await prompter.select<Way>({
      message: "How do you want to set up your team?",
      choices: [
        {
          value: "template",
          label: "Start from a template",
          hint: "Simple Q&A, Research, Code & Files, Local model, Planning, Decomposition, Custom",
        },
        {
          value: "browse",
          label: "Browse ready-made configs",
          hint: "built-in examples, yours and this project's",
        },
      ],
      ...(way !== undefined ? { initial: way } : {}),
    });
    if (chosen === BACK) return BACK;
    way = chosen;
    if (chosen === "browse") {
      const picked = await browse(options);
      if (picked !== BACK) return picked;
      continue;
    }
    for (;;) {
      const built = await askTemplate(options, template);
      if (built === BACK) break;
      template = built.template;
      prompter.note(built.yaml.trimEnd(), "Your config");
      const savedTo = await saveTemplate(options, built.yaml);
      if (savedTo !== BACK) return { configArg: savedTo, savedTo };
    }
  }
}

/** Where a template is saved; asks before replacing a file. */
async function saveTemplate(options: ConfigStepOptions, yaml: string): Promise<string | Back> {
  const { prompter, home, cwd } = options;
  const global = globalConfigPath(home);
  const project = join(cwd, PROJECT_CONFIG_PATH);
  for (;;) {
    const target = await prompter.select<string>({
      message: "Save it where? (Esc goes back to the templates)",
      choices: [
        {
          value: global,
          label: `As your default: ${tildePath(global, home)}`,
          hint: "used wherever there is no .coord/config.yaml",
        },
        {
          value: project,
          label: `For this project: ${PROJECT_CONFIG_PATH}`,
          hint: `used when coord runs in ${tildePath(cwd, home)}`,
        },
      ],
    });
    if (target === BACK) return BACK;
    if (await mayReplace(prompter, target, home)) {
      await writeConfig(target, yaml);
      prompter.success(`Saved ${tildePath(target, home)}.`);
      return target;
    }
  }
}

/** Picks a ready-made config; "Save as default?" copies it to the global default. */
async function browse(options: ConfigStepOptions): Promise<ConfigChoice | Back> {
  const { prompter, home } = options;
  const categories = await listConfigSources(options);
  const global = globalConfigPath(home);
  for (;;) {
    const entry = await pickConfig(prompter, categories);
    if (entry === BACK) return BACK;
    if (entry.path === global) return { configArg: global, savedTo: undefined };
    const save = await prompter.confirm({
      message: `Save as default? (copies ${entry.name} to ${tildePath(global, home)}; No runs it from where it is)`,
      initial: true,
    });
    if (save === BACK) continue;
    if (!save) return { configArg: entry.configArg, savedTo: undefined };
    if (!(await mayReplace(prompter, global, home))) continue;
    await writeConfig(global, await readEntry(entry));
    prompter.success(`Saved ${entry.name} as ${tildePath(global, home)}.`);
    return { configArg: global, savedTo: global };
  }
}

async function readEntry(entry: ConfigEntry): Promise<string> {
  try {
    return await readFile(entry.path, "utf8");
  } catch (error) {
    throw new ConfigError(`${entry.path}: cannot read the config: ${(error as Error).message}`, {
      file: entry.path,
    });
  }
}

/** True when `path` does not exist, or the user agrees to replace it. */
async function mayReplace(prompter: Prompter, path: string, home: string): Promise<boolean> {
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) return true;
  const replace = await prompter.confirm({
    message: `${tildePath(path, home)} exists. Replace it?`,
    initial: false,
  });
  return replace === true;
}

async function writeConfig(path: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, text);
  } catch (error) {
    throw new ConfigError(`${path}: cannot write the config: ${(error as Error).message}`, {
      file: path,
    });
  }
}
