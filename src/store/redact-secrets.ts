/**
 * Secret redaction for what the run log writes down and for what `coord export` uploads. The
 * redactor itself is the process-wide one in `src/redact.ts` (every output path uses it); this
 * module re-exports it for the store's importers and adds the two pieces an export needs on top:
 * the secret values of a *recorded* run's environment and config ({@link collectSecretValues}),
 * and `key: value` assignments in arbitrary text files ({@link redactText}).
 */
import { isSecretEnvName, isSecretName, MIN_SECRET_LENGTH, REDACTED, redact } from "../redact.js";

export {
  isSecretName,
  REDACTED,
  redact,
  redactCliArgs,
  redactSecrets,
  redactStrings,
} from "../redact.js";

/**
 * A secret-named key and its value in text (JSON, YAML, .env, headers, prose):
 * `"api_key": "abc"`, `token=abc`, `x-api-key: abc`, `Authorization: Basic abc`. Groups: the
 * key part up to the value, the value's opening quote, the value.
 */
const SECRET_ASSIGNMENT =
  /(["']?\b[A-Za-z0-9_.-]*(?:api[_-]?key|access[_-]?key|token|secret|passw(?:or)?d|authorization|cookie)\b["']?\s*[:=]\s*)(["']?)((?:Basic\s+)?[^\s"',{}[\]]+)/gi;
/** `${ENV_VAR}` or `$ENV_VAR`: a reference, not a secret. */
const ENV_REFERENCE = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/;

/**
 * The secret values of an environment and of JSON-like values (configs): the values of
 * environment variables named like secrets (`OPENAI_API_KEY`, `GH_TOKEN`, …) and the string
 * values under secret-named keys anywhere in `values`. Env-var references (`${OPENAI_API_KEY}`)
 * and values shorter than 8 characters are left out. Sorted longest first, without duplicates.
 */
export function collectSecretValues(sources: {
  env?: Readonly<Record<string, string | undefined>>;
  values?: readonly unknown[];
}): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_SECRET_LENGTH && !ENV_REFERENCE.test(trimmed)) found.add(trimmed);
  };
  for (const [name, value] of Object.entries(sources.env ?? {})) {
    if (value !== undefined && (isSecretEnvName(name) || isSecretName(name))) add(value);
  }
  const walk = (value: unknown, secret: boolean, seen: Set<object>) => {
    if (typeof value === "string") {
      if (secret) add(value);
      return;
    }
    if (value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) for (const item of value) walk(item, secret, seen);
    else
      for (const [key, item] of Object.entries(value))
        walk(item, secret || isSecretName(key), seen);
  };
  for (const value of sources.values ?? []) walk(value, false, new Set());
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * Redacts secrets in a free-text file before it leaves the machine (an export): every
 * occurrence of a `known` value, then the process's redactor ({@link redact}: registered values
 * and credential shapes), then the values of secret-named keys (`"api_key": "…"`, `token=…`,
 * `x-api-key: …`; numbers, booleans and env-var references are kept, so `"max_tokens": 4096`
 * stays).
 * @param known secret values to remove wherever they appear, longest first.
 */
export function redactText(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) out = out.split(secret).join(REDACTED);
  out = redact(out);
  return out.replace(SECRET_ASSIGNMENT, (match, key: string, quote: string, value: string) =>
    value === REDACTED ||
    value.startsWith("<") ||
    /^\d+(\.\d+)?$/.test(value) ||
    ENV_REFERENCE.test(value) ||
    /^(true|false|null|none|undefined)$/i.test(value)
      ? match
      : `${key}${quote}${REDACTED}`,
  );
}
