/**
 * Step 1 of the setup wizard (spec section 1 "First-time setup wizard"; section 5
 * "Authentication"): pick providers, type their keys (masked), optionally check each with a
 * cheap call, and save them to `~/.config/coord/.env` (mode 0600, merged with the lines already
 * there). The file is written once, at the end of the step.
 */
import { type ProviderId, type ProviderInfo, PROVIDERS, writeEnvFile } from "../config/index.js";
import { checkProviderKey, type KeyCheckResult } from "./key-check.js";
import { BACK, type Back, type Prompter, type Validate } from "./prompter.js";
import { tildePath } from "./paths.js";

/** Options of {@link askForKeys}. */
export interface KeyStepOptions {
  prompter: Prompter;
  home: string;
  /** The environment with `~/.config/coord/.env` merged in (base-URL overrides for the check). */
  env: Readonly<Record<string, string | undefined>>;
  /** For the key check; default the global `fetch`. */
  fetch?: typeof fetch;
  /** Providers ticked at first (those chosen before going back to this step). */
  initial?: readonly ProviderId[];
}

/** What the step saved: the variables written (none when the user went on without keys). */
export interface KeyStepResult {
  written: Record<string, string>;
  /** The providers whose keys were written. */
  providers: ProviderId[];
}

const validateKey: Validate = (value) => {
  if (value.trim() === "") return "Type or paste the key (Esc goes back)";
  if (/\s/.test(value.trim())) return "A key has no spaces: paste it again";
  return undefined;
};

const validateUrl: Validate = (value) => {
  try {
    const url = new URL(value.trim());
    return /^https?:$/.test(url.protocol) ? undefined : "Use an http(s) URL";
  } catch {
    return "Type a URL like https://<resource>.openai.azure.com";
  }
};

/**
 * Asks for provider keys and saves them.
 * @returns the saved variables, or BACK when Esc was pressed on the first question.
 * @throws SetupCancelled on Ctrl+C (nothing written); ConfigError when the file cannot be written.
 */
export async function askForKeys(options: KeyStepOptions): Promise<KeyStepResult | Back> {
  const { prompter } = options;
  let chosen: ProviderInfo[] = PROVIDERS.filter((provider) =>
    (options.initial ?? []).includes(provider.id),
  );
  for (;;) {
    const picked = await prompter.multiselect<ProviderId>({
      message: "Which providers will you use? (Space selects, Enter goes on)",
      choices: PROVIDERS.map((provider) => ({
        value: provider.id,
        label: provider.label,
        hint: provider.keyVariables[0]!,
      })),
      initial: chosen.map((provider) => provider.id),
    });
    if (picked === BACK) return BACK;
    chosen = PROVIDERS.filter((provider) => picked.includes(provider.id));
    if (chosen.length === 0) {
      const without = await prompter.confirm({
        message:
          "Go on without API keys? (local models, OpenAI-compatible servers and the scripted demo need none)",
        initial: true,
      });
      if (without === true) return { written: {}, providers: [] };
      continue;
    }
    const values = await typeKeys(prompter, chosen);
    if (values === BACK) continue;
    const checked = await maybeCheck(options, chosen, values);
    if (checked === BACK) continue;
    if (Object.keys(checked).length === 0) {
      prompter.warn("No key to save.");
      continue;
    }
    const path = await writeEnvFile({ home: options.home, entries: checked });
    const count = Object.keys(checked).filter((name) => name.endsWith("_KEY")).length;
    prompter.success(
      `Saved ${count} key${count === 1 ? "" : "s"} to ${tildePath(path, options.home)} (readable only by you).`,
    );
    return {
      written: checked,
      providers: chosen
        .filter((provider) => checked[provider.keyVariables[0]!] !== undefined)
        .map((provider) => provider.id),
    };
  }
}

/** The key (and Azure's endpoint) of each provider; Esc goes back one question. */
async function typeKeys(
  prompter: Prompter,
  providers: readonly ProviderInfo[],
): Promise<Record<string, string> | Back> {
  const values: Record<string, string> = {};
  let index = 0;
  while (index < providers.length) {
    const provider = providers[index]!;
    const entered = await typeProviderValues(prompter, provider);
    if (entered === BACK) {
      if (index === 0) return BACK;
      index--;
      continue;
    }
    Object.assign(values, entered);
    index++;
  }
  return values;
}

async function typeProviderValues(
  prompter: Prompter,
  provider: ProviderInfo,
): Promise<Record<string, string> | Back> {
  const variable = provider.keyVariables[0]!;
  for (;;) {
    const key = await prompter.password({
      message: `${provider.label} API key (${variable})`,
      validate: validateKey,
    });
    if (key === BACK) return BACK;
    if (provider.endpointVariable === undefined) return { [variable]: key.trim() };
    const endpoint = await prompter.text({
      message: `${provider.label} endpoint (${provider.endpointVariable.name})`,
      placeholder: provider.endpointVariable.placeholder,
      validate: validateUrl,
    });
    if (endpoint === BACK) continue;
    return { [variable]: key.trim(), [provider.endpointVariable.name]: endpoint.trim() };
  }
}

/** Offers the check; returns the values to save (a refused key may be retyped or left out). */
async function maybeCheck(
  options: KeyStepOptions,
  providers: readonly ProviderInfo[],
  values: Record<string, string>,
): Promise<Record<string, string> | Back> {
  const { prompter } = options;
  const check = await prompter.confirm({
    message: "Check the keys now? (one request per provider that lists its models; no tokens used)",
    initial: true,
  });
  if (check === BACK) return BACK;
  if (!check) return values;
  const kept = { ...values };
  for (const provider of providers) {
    for (;;) {
      const result = await prompter.task(`Checking the ${provider.label} key`, (signal) =>
        checkProviderKey(provider, kept, {
          env: options.env,
          signal,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
      );
      const next = await reportCheck(prompter, provider, result);
      if (next === "keep") break;
      if (next === "drop") {
        delete kept[provider.keyVariables[0]!];
        if (provider.endpointVariable) delete kept[provider.endpointVariable.name];
        break;
      }
      const retyped = await typeProviderValues(prompter, provider);
      if (retyped !== BACK) Object.assign(kept, retyped);
    }
  }
  return kept;
}

async function reportCheck(
  prompter: Prompter,
  provider: ProviderInfo,
  result: KeyCheckResult,
): Promise<"keep" | "drop" | "retype"> {
  switch (result.status) {
    case "ok":
      prompter.success(`${provider.label}: the key works.`);
      return "keep";
    case "unreachable":
    case "unknown":
      prompter.warn(
        `${provider.label}: could not check the key (${result.detail}); it is saved unchecked.`,
      );
      return "keep";
    case "rejected": {
      prompter.warn(`${provider.label} refused the key (${result.detail}).`);
      const choice = await prompter.select<"retype" | "keep" | "drop">({
        message: `What now with the ${provider.label} key?`,
        choices: [
          { value: "retype", label: "Type it again" },
          { value: "keep", label: "Save it anyway" },
          { value: "drop", label: `Leave ${provider.label} out` },
        ],
      });
      return choice === BACK ? "retype" : choice;
    }
  }
}
