/**
 * Secret redaction for what the run log writes down (execution_metadata.yaml's config and CLI
 * args) and for everything `coord export` uploads (any text file): secret-named keys and flags,
 * values that look like credentials, and the configured key values become {@link REDACTED}.
 */

/** What replaces a secret. */
export const REDACTED = "<redacted>";

/** Key names whose string values are secrets: api_key, *_key, *token*, *secret*, password. */
const SECRET_KEY = /(^|[_-])key$|token|secret|passw(or)?d|authorization|cookie/i;
/** camelCase key names: apiKey, accessKey. */
const SECRET_CAMEL_KEY = /[a-z0-9]Key$/;
/**
 * Values that look like credentials wherever they appear: OpenAI/Anthropic `sk-…`, Stripe-style
 * `sk_…`, xAI, Google `AIza…` and `ya29.…`, GitHub, Hugging Face, GitLab, Groq `gsk_…`,
 * Perplexity `pplx-…`, Replicate `r8_…`, Slack `xox…-`, AWS `AKIA…`, JWTs, `Bearer …`.
 */
const SECRET_VALUE =
  /\b(?:sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{16,}|xai-[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{30,}|ya29\.[0-9A-Za-z_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|hf_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9]{20,}|pplx-[A-Za-z0-9]{20,}|r8_[A-Za-z0-9]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;
/**
 * A secret-named key and its value in text (JSON, YAML, .env, headers, prose):
 * `"api_key": "abc"`, `token=abc`, `x-api-key: abc`, `Authorization: Basic abc`. Groups: the
 * key part up to the value, the value's opening quote, the value.
 */
const SECRET_ASSIGNMENT =
  /(["']?\b[A-Za-z0-9_.-]*(?:api[_-]?key|access[_-]?key|token|secret|passw(?:or)?d|authorization|cookie)\b["']?\s*[:=]\s*)(["']?)((?:Basic\s+)?[^\s"',{}[\]]+)/gi;
/** `${ENV_VAR}` or `$ENV_VAR`: a reference, not a secret; kept so the log says where keys came from. */
const ENV_REFERENCE = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/;

/**
 * A deep copy of `value` with secrets replaced by `"<redacted>"`: the string values (and every
 * string inside object/array values) of keys named like secrets — `api_key`, `*_key`, `apiKey`,
 * anything containing `token`, `secret`, `password`, `authorization`, `cookie` — except env-var
 * references (`${OPENAI_API_KEY}`); and, anywhere, substrings that look like credentials
 * (`sk-…`, `AIza…`, `ghp_…`, `hf_…`, `xai-…`, `AKIA…`, `Bearer …`). Numbers and booleans are
 * kept (so `max_tokens: 4096` stays). Dates become ISO strings, functions and symbols are
 * dropped, a cycle becomes `"[Circular]"`. Does not modify `value`.
 */
export function redactSecrets(value: unknown): unknown {
  return redactValue(value, false, new WeakSet());
}

/**
 * CLI arguments with secrets redacted: the value of a flag named like a secret (`--api-key sk-…`,
 * `--api-key=…`; a purely numeric value such as `--max-tokens 100` is kept) and any substring
 * that looks like a credential.
 */
export function redactCliArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let valueIsSecret = false;
  for (const arg of args) {
    if (valueIsSecret && !arg.startsWith("-")) {
      valueIsSecret = false;
      out.push(/^\d+(\.\d+)?$/.test(arg) ? arg : REDACTED);
      continue;
    }
    const assignment = /^(--?[^=]+)=(.*)$/s.exec(arg);
    if (assignment && isSecretName(assignment[1]!) && !/^\d+(\.\d+)?$/.test(assignment[2]!)) {
      out.push(`${assignment[1]}=${REDACTED}`);
      valueIsSecret = false;
      continue;
    }
    out.push(redactString(arg));
    valueIsSecret = !assignment && arg.startsWith("-") && isSecretName(arg);
  }
  return out;
}

/**
 * True for a key, flag or environment-variable name that holds a secret: `api_key`,
 * `OPENAI_API_KEY`, `--api-key`, `apiKey`, `GH_TOKEN`, `client_secret`, `PASSWORD`.
 */
export function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, "");
  return SECRET_KEY.test(bare) || SECRET_CAMEL_KEY.test(bare);
}

/** Shortest configured value treated as a secret (shorter ones would redact ordinary words). */
const MIN_KNOWN_SECRET_LENGTH = 8;

/**
 * The secret values a process knows, to redact wherever they appear: the values of environment
 * variables named like secrets (`OPENAI_API_KEY`, `GH_TOKEN`, …) and the string values under
 * secret-named keys anywhere in `values` (configs). Env-var references (`${OPENAI_API_KEY}`) and
 * values shorter than 8 characters are left out. Sorted longest first, without duplicates.
 */
export function collectSecretValues(sources: {
  env?: Readonly<Record<string, string | undefined>>;
  values?: readonly unknown[];
}): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_KNOWN_SECRET_LENGTH && !ENV_REFERENCE.test(trimmed))
      found.add(trimmed);
  };
  for (const [name, value] of Object.entries(sources.env ?? {})) {
    if (value !== undefined && isSecretName(name)) add(value);
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
 * Redacts secrets in free text (a log file, a tool output, a description): every occurrence of
 * a `known` value (from {@link collectSecretValues}), values that look like credentials, and the
 * values of secret-named keys (`"api_key": "…"`, `token=…`, `x-api-key: …`; numbers and env-var
 * references are kept, so `"max_tokens": 4096` stays).
 * @param known secret values to remove wherever they appear, longest first.
 */
export function redactText(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) out = out.split(secret).join(REDACTED);
  out = out.replace(SECRET_VALUE, REDACTED);
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

function redactString(text: string): string {
  return text.replace(SECRET_VALUE, REDACTED);
}

function redactValue(value: unknown, secret: boolean, seen: WeakSet<object>): unknown {
  if (typeof value === "string") {
    if (secret && value !== "" && !ENV_REFERENCE.test(value)) return REDACTED;
    return redactString(value);
  }
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, seen) ?? null);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const redacted = redactValue(item, secret || isSecretName(key), seen);
      // defineProperty, not assignment: a "__proto__" key stays a plain key.
      if (redacted !== undefined) {
        Object.defineProperty(out, key, {
          value: redacted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
