/**
 * Secret redaction for what the run log writes down (execution_metadata.yaml's config and CLI
 * args): secret-named keys and flags, and values that look like credentials, become
 * {@link REDACTED}.
 */

/** What replaces a secret. */
export const REDACTED = "<redacted>";

/** Key names whose string values are secrets: api_key, *_key, *token*, *secret*, password. */
const SECRET_KEY = /(^|[_-])key$|token|secret|passw(or)?d|authorization|cookie/i;
/** camelCase key names: apiKey, accessKey. */
const SECRET_CAMEL_KEY = /[a-z0-9]Key$/;
/** Values that look like credentials wherever they appear. */
const SECRET_VALUE =
  /\b(?:sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{16,}|xai-[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|hf_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16})|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;
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

function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, "");
  return SECRET_KEY.test(bare) || SECRET_CAMEL_KEY.test(bare);
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
