/**
 * The one redactor for everything that leaves the process (docs/server.md
 * "Security"): events and every file of a run log, status and metrics, the debug log, stderr and
 * stdout, HTTP bodies, traces and exports all pass their text through {@link redact}.
 *
 * It knows two kinds of secret:
 * - **known values**: every value registered with {@link registerSecret} — the environment's
 *   key-like variables ({@link registerEnvSecrets}: `*_API_KEY`, `*_TOKEN`, `*SECRET*`, …), the
 *   config's secret-named keys after `${VAR}` expansion ({@link registerConfigSecrets}:
 *   `api_key`, …) and each API key a backend resolved. A value shorter than
 *   {@link MIN_SECRET_LENGTH} characters is not registered (it would blank ordinary words).
 * - **usual key shapes** wherever they appear: `sk-…`, `sk_…`, `xai-…`, `AIza…`, `ya29.…`,
 *   `ghp_…`, `github_pat_…`, `hf_…`, `glpat-…`, `gsk_…`, `pplx-…`, `r8_…`, `xox?-…`, `AKIA…`,
 *   JWTs, `Bearer …`, and the value of an
 *   `x-api-key` / `api-key` / `x-goog-api-key` header or field.
 *
 * The registry is process-wide on purpose: a key registered by whichever part loaded it (the
 * .env file, a config, a backend) is then unknown to no output path. Values are only ever added.
 *
 * Hook for other output paths (tracing, export): call {@link redact} on text, or
 * {@link redactStrings} on a JSON-like value, right before it leaves the process.
 */

/** What replaces a secret. */
export const REDACTED = "<redacted>";

/** Values shorter than this are never registered as secrets (characters). */
export const MIN_SECRET_LENGTH = 8;

/** Config key names whose string values are secrets: api_key, *_key, *token*, *secret*, password. */
const SECRET_KEY = /(^|[_-])key$|token|secret|passw(or)?d|authorization|cookie/i;
/** camelCase key names: apiKey, accessKey. */
const SECRET_CAMEL_KEY = /[a-z0-9]Key$/;
/** Environment variable names whose values are secrets. */
const SECRET_ENV_NAME =
  /(?:^|_)(?:KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$|SECRET|PASSWORD|PRIVATE_KEY/i;
/** Values that look like credentials wherever they appear. */
const SECRET_SHAPE =
  /\b(?:sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{16,}|xai-[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{30,}|ya29\.[0-9A-Za-z_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|hf_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9]{20,}|pplx-[A-Za-z0-9]{20,}|r8_[A-Za-z0-9]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;
/**
 * `x-api-key: VALUE`, `"api-key": "VALUE"`, `x-goog-api-key=VALUE`: the value of a key header. The
 * value must hold a digit, as every provider's keys do, so prose after `api_key:` stays readable.
 */
const KEY_HEADER =
  /\b((?:x-goog-|x-)?api[-_]key\\?["']?\s*[:=]\s*\\?["']?)((?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{8,})/gi;
/** `${ENV_VAR}` or `$ENV_VAR`: a reference, not a secret; kept so the log says where keys came from. */
const ENV_REFERENCE = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/;

const knownSecrets = new Set<string>();
/** One alternation of every known value (and its JSON-escaped form), longest first; rebuilt lazily. */
let knownPattern: RegExp | undefined;
let knownPatternStale = false;

/** How many secrets are known: it only grows, so a cache of redacted text can check it. */
export function knownSecretCount(): number {
  return knownSecrets.size;
}

/**
 * Adds a value to the known secrets: from now on {@link redact} replaces it wherever it appears.
 * Blank values, values shorter than {@link MIN_SECRET_LENGTH} and `${VAR}` references are ignored.
 */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== "string") return;
  const trimmed = value.trim();
  if (trimmed.length < MIN_SECRET_LENGTH || ENV_REFERENCE.test(trimmed)) return;
  if (knownSecrets.has(trimmed)) return;
  knownSecrets.add(trimmed);
  knownPatternStale = true;
}

/** True when an environment variable of this name holds a secret (`OPENAI_API_KEY`, `HF_TOKEN`, …). */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** Registers the values of the environment's secret-named variables ({@link isSecretEnvName}). */
export function registerEnvSecrets(env: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(env)) if (isSecretEnvName(name)) registerSecret(value);
}

/**
 * Registers every string found under a secret-named key (`api_key`, `*_token`, `password`, …) of
 * a config or any JSON-like value, at any depth.
 */
export function registerConfigSecrets(value: unknown): void {
  walkSecretNamed(value, false, new WeakSet());
}

function walkSecretNamed(value: unknown, secret: boolean, seen: WeakSet<object>): void {
  if (typeof value === "string") {
    if (secret) registerSecret(value);
    return;
  }
  if (value === null || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) walkSecretNamed(item, secret, seen);
    return;
  }
  for (const [key, item] of Object.entries(value))
    walkSecretNamed(item, secret || isSecretName(key), seen);
}

/** True for key and flag names that hold secrets (`api_key`, `--api-key`, `apiKey`, `token`, …). */
export function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, "");
  return SECRET_KEY.test(bare) || SECRET_CAMEL_KEY.test(bare);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function currentKnownPattern(): RegExp | undefined {
  if (knownPatternStale) {
    knownPatternStale = false;
    const forms = new Set<string>();
    for (const secret of knownSecrets) {
      forms.add(secret);
      forms.add(JSON.stringify(secret).slice(1, -1)); // as it appears inside JSON text
    }
    const sorted = [...forms].sort((first, second) => second.length - first.length);
    knownPattern = new RegExp(sorted.map(escapeRegExp).join("|"), "g");
  }
  return knownPattern;
}

/**
 * THE redactor: `text` with every known secret value and every credential-shaped substring
 * replaced by `<redacted>`. Cheap when there is nothing to replace; safe on JSON text (the
 * replacement holds no quote or backslash, so a JSON line stays valid JSON).
 */
export function redact(text: string): string {
  let out = text;
  const known = currentKnownPattern();
  if (known !== undefined) out = out.replace(known, REDACTED);
  out = out.replace(SECRET_SHAPE, REDACTED);
  return out.replace(KEY_HEADER, (_match, prefix: string) => `${prefix}${REDACTED}`);
}

/** The length of the longest known secret value, JSON-escaped form included (characters; 0: none). */
export function longestKnownSecret(): number {
  let longest = 0;
  for (const secret of knownSecrets) longest = Math.max(longest, JSON.stringify(secret).length - 2);
  return longest;
}

/**
 * Where {@link redact} would replace something in `text`: the `[start, end)` character ranges of
 * known values, credential shapes and key-header values, in the order the patterns run (they
 * may overlap). For redacting a stream cut into chunks (src/store/stream-redactor.ts).
 */
export function secretSpans(text: string): [start: number, end: number][] {
  const spans: [number, number][] = [];
  const known = currentKnownPattern();
  for (const pattern of known === undefined ? [SECRET_SHAPE] : [known, SECRET_SHAPE]) {
    for (const match of text.matchAll(pattern)) {
      spans.push([match.index, match.index + match[0].length]);
    }
  }
  for (const match of text.matchAll(KEY_HEADER))
    spans.push([match.index, match.index + match[0].length]);
  return spans;
}

/**
 * A JSON-like value with every string inside passed through {@link redact} (keys are kept).
 * Returns `value` itself when nothing changed, so redacting an event stream costs no copies.
 * For events, HTTP bodies and exports: unlike {@link redactSecrets} it does not judge values by
 * their key's name (a tool input `{key: "a"}` stays).
 */
export function redactStrings<T>(value: T): T {
  return redactStringsIn(value, new WeakSet()) as T;
}

function redactStringsIn(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object" || seen.has(value)) return value;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value as unknown[];
      let changed: unknown[] | undefined;
      items.forEach((item, index) => {
        const next = redactStringsIn(item, seen);
        if (next !== item) (changed ??= [...items])[index] = next;
      });
      return changed ?? value;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
      return value; // class instances (Date, Error…) are left to their own serialization
    let changed: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const next = redactStringsIn(item, seen);
      if (next === item) continue;
      changed ??= { ...value };
      Object.defineProperty(changed, key, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return changed ?? value;
  } finally {
    seen.delete(value);
  }
}

/**
 * A deep copy of `value` with secrets replaced by `"<redacted>"`: the string values (and every
 * string inside object/array values) of keys named like secrets — `api_key`, `*_key`, `apiKey`,
 * anything containing `token`, `secret`, `password`, `authorization`, `cookie` — except env-var
 * references (`${OPENAI_API_KEY}`); and, anywhere, what {@link redact} replaces. Numbers and
 * booleans are kept (so `max_tokens: 4096` stays). Dates become ISO strings, functions and
 * symbols are dropped, a cycle becomes `"[Circular]"`. Does not modify `value`. For configs
 * (execution_metadata.yaml, the chat's `/config`).
 */
export function redactSecrets(value: unknown): unknown {
  return redactValue(value, false, new WeakSet());
}

/**
 * CLI arguments with secrets redacted: the value of a flag named like a secret (`--api-key sk-…`,
 * `--api-key=…`; a purely numeric value such as `--max-tokens 100` is kept) and whatever
 * {@link redact} replaces.
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
    out.push(redact(arg));
    valueIsSecret = !assignment && arg.startsWith("-") && isSecretName(arg);
  }
  return out;
}

function redactValue(value: unknown, secret: boolean, seen: WeakSet<object>): unknown {
  if (typeof value === "string") {
    if (secret && value !== "" && !ENV_REFERENCE.test(value)) return REDACTED;
    return redact(value);
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

const GUARDED = Symbol("coord.redactWrites");

/** A writable stream's `write`, as {@link redactWrites} wraps it. */
interface WritableLike {
  write(chunk: unknown, ...rest: unknown[]): boolean;
}

/**
 * Makes every string (and UTF-8 Buffer) written to `stream` pass through {@link redact}: the
 * CLI guards `process.stdout` and `process.stderr` with it at start, so no line of any command
 * can print a key. Idempotent.
 */
export function redactWrites(stream: WritableLike): void {
  const marked = stream as WritableLike & { [GUARDED]?: true };
  if (marked[GUARDED]) return;
  marked[GUARDED] = true;
  const write = stream.write.bind(stream);
  stream.write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string") return write(redact(chunk), ...rest);
    if (Buffer.isBuffer(chunk)) {
      const text = chunk.toString("utf8");
      const clean = redact(text);
      return write(clean === text ? chunk : Buffer.from(clean, "utf8"), ...rest);
    }
    return write(chunk, ...rest);
  };
}
