/**
 * The `config:` entry of a run's execution_metadata.yaml (`log-writer.ts`), made once per config
 * object.
 */
import { stringify } from "yaml";
import { knownSecretCount } from "../redact.js";
import { redactSecrets } from "./redact-secrets.js";

/** The `config:` entry of execution_metadata.yaml by config object; see {@link configYaml}. */
const configYamls = new WeakMap<object, { json: string; secrets: number; yaml: string }>();

/**
 * `config: …` as the last entry of execution_metadata.yaml's map, with secrets redacted (the whole
 * text is redacted again by the caller). The same config object (a served team's runs, a
 * session's turns) is stringified once: YAML costs about 0.5 ms for a small team's config. A
 * config whose JSON changed since, or a secret registered since, makes it again.
 */
export function configYaml(config: unknown): string {
  const make = () => stringify({ config: redactSecrets(config) ?? null });
  if (typeof config !== "object" || config === null) return make();
  const json = JSON.stringify(config);
  const secrets = knownSecretCount();
  const cached = configYamls.get(config);
  if (cached?.json === json && cached.secrets === secrets) return cached.yaml;
  const yaml = make();
  configYamls.set(config, { json, secrets, yaml });
  return yaml;
}
