/**
 * The wizard's optional key check (spec section 1 "First-time setup wizard", step 1): one cheap
 * call per provider, listing its models (`GET {base}/models`; OpenRouter: `GET {base}/key`), which
 * costs no tokens. The base URL honours the same override variable as the backend
 * (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, …), which is also how tests point it at a fake server.
 */
import type { KeyHeader, ProviderInfo } from "../config/index.js";

/** What a check found. Messages never contain the key. */
export type KeyCheckResult =
  | { status: "ok" }
  /** The provider refused the key (HTTP 401 or 403). */
  | { status: "rejected"; detail: string }
  /** No answer: no network, a wrong URL, a timeout. */
  | { status: "unreachable"; detail: string }
  /** An answer that says nothing about the key (another HTTP status). */
  | { status: "unknown"; detail: string };

/** Options of {@link checkProviderKey}. */
export interface KeyCheckOptions {
  /** The environment, for base-URL overrides. */
  env: Readonly<Record<string, string | undefined>>;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Give up after this long (ms). Default 15000. */
  timeoutMs?: number;
}

/**
 * Checks `key` against `provider` with one request.
 *
 * @param values the values typed for the provider's variables: the key, and Azure's endpoint.
 * @returns the outcome; errors are results, never thrown, except an abort through `signal`.
 */
export async function checkProviderKey(
  provider: ProviderInfo,
  values: Readonly<Record<string, string>>,
  options: KeyCheckOptions,
): Promise<KeyCheckResult> {
  const key = values[provider.keyVariables[0]!] ?? "";
  let url: string;
  try {
    url = checkUrl(provider, values, options.env);
  } catch (error) {
    return { status: "unreachable", detail: (error as Error).message };
  }
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 15_000)];
  if (options.signal) signals.push(options.signal);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      headers: { ...authHeader(provider.keyCheck.header, key), ...provider.keyCheck.headers },
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = error instanceof Error ? describeFetchError(error) : String(error);
    return { status: "unreachable", detail: `${new URL(url).host}: ${reason}` };
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return { status: "ok" };
  if (response.status === 401 || response.status === 403) {
    return { status: "rejected", detail: `HTTP ${response.status} from ${new URL(url).host}` };
  }
  return { status: "unknown", detail: `HTTP ${response.status} from ${new URL(url).host}` };
}

/**
 * The check's URL: the override variable's base (a bare host gets the default's path, as the
 * backends do), else the default; Azure's is below the endpoint typed in the wizard.
 * @throws Error when a base is not a URL.
 */
export function checkUrl(
  provider: ProviderInfo,
  values: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const check = provider.keyCheck;
  if (provider.endpointVariable !== undefined) {
    const name = provider.endpointVariable.name;
    const endpoint = (values[name] ?? env[name] ?? "").trim().replace(/\/+$/, "");
    const resource = endpoint.replace(/\/openai(\/v1)?$/, "");
    return `${parseUrl(resource, name).toString().replace(/\/+$/, "")}${check.defaultBaseUrl}${check.path}`;
  }
  const override =
    check.baseUrlVariable === undefined ? undefined : env[check.baseUrlVariable]?.trim();
  if (override === undefined || override === "") return `${check.defaultBaseUrl}${check.path}`;
  const base = parseUrl(override, check.baseUrlVariable!);
  const defaultPath = new URL(check.defaultBaseUrl).pathname;
  const path = base.pathname === "/" ? defaultPath : base.pathname.replace(/\/+$/, "");
  return `${base.origin}${path}${check.path}`;
}

function parseUrl(value: string, variable: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new Error(`${variable}=${value} is not a URL`);
  }
}

function authHeader(header: KeyHeader, key: string): Record<string, string> {
  switch (header) {
    case "bearer":
      return { Authorization: `Bearer ${key}` };
    case "x-api-key":
      return { "x-api-key": key };
    case "x-goog-api-key":
      return { "x-goog-api-key": key };
    case "api-key":
      return { "api-key": key };
  }
}

function describeFetchError(error: Error): string {
  if (error.name === "TimeoutError") return "no answer in time";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}
