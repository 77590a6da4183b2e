/**
 * `coord --validate --offline`: checks a config in CI, where no API key is set
 * (docs/scripting.md "Checking a config"). Every provider key variable coord knows (the provider
 * descriptors' key variables and their hosts', `KEY_VARIABLES`; the endpoint variables the setup
 * wizard asks for, Azure's), and every secret-named `${VAR}` the config file names, is given a
 * placeholder value when it is unset; everything else is checked as without `--offline`, and the
 * report says key presence was not checked. A variable that is set keeps its value.
 */
import { readFile } from "node:fs/promises";
import { isSecretEnvName } from "../redact.js";

/** The value an unset key variable gets under `--offline` (never sent: validate sends nothing). */
export const OFFLINE_KEY_PLACEHOLDER = "coord-offline-placeholder-key";
/** The value an unset endpoint variable (Azure) gets under `--offline`. */
const OFFLINE_ENDPOINT_PLACEHOLDER = "https://offline.invalid";

/**
 * The environment to validate with offline: `env` with the unset key variables filled.
 * @param env the environment with `.env` merged in.
 * @param configFile the config file (read for `${VAR}` names; unreadable: only the provider
 *   variables are filled, and the loader reports the file).
 */
export async function offlineEnv(
  env: Readonly<Record<string, string | undefined>>,
  configFile: string | undefined,
): Promise<Record<string, string | undefined>> {
  const { KEY_VARIABLES, PROVIDERS } = await import("../config/index.js");
  const keys = new Set<string>(KEY_VARIABLES);
  const endpoints = new Set<string>();
  for (const provider of PROVIDERS)
    if (provider.endpointVariable) endpoints.add(provider.endpointVariable.name);
  const text = configFile === undefined ? "" : await readFile(configFile, "utf8").catch(() => "");
  for (const match of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g))
    if (isSecretEnvName(match[1]!)) keys.add(match[1]!);
  const filled: Record<string, string | undefined> = { ...env };
  const isUnset = (name: string) => (env[name] ?? "").trim() === "";
  for (const name of keys) {
    if (isUnset(name)) filled[name] = OFFLINE_KEY_PLACEHOLDER;
  }
  for (const name of endpoints) {
    if (isUnset(name)) filled[name] = OFFLINE_ENDPOINT_PLACEHOLDER;
  }
  return filled;
}
