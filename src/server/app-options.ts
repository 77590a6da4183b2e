/**
 * The options, activity counts and per-request variables of `coord serve`'s app (./app.ts), in
 * a module of their own so that the routes (./chat-route.ts, ./model-routes.ts) read them
 * without importing the app that adds them.
 */
import type { Clock } from "../clock.js";
import type { RunState } from "../session/index.js";
import type { RequestTrace, Tracing } from "../tracing/index.js";
import type { LogVariables } from "./access-log.js";
import type { ServedTeam } from "./served-team.js";
/** Options of {@link createApp}. */
export interface AppOptions {
  /** The server's team (`--config`); undefined: each request's `model` chooses one. */
  team?: ServedTeam | undefined;
  /** Environment (merged with ~/.config/coord/.env): provider keys, `COORD_*`. */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: `path:FILE` models, relative model paths and the log root resolve here. */
  cwd: string;
  /** coord's version, for `/health` and the run logs. */
  version: string;
  /** Run log root (`agent_outputs` or `COORD_LOG_DIR`); undefined: no run logs. */
  logRoot?: string | undefined;
  /** Also write coord_debug.log per run and report trace lines through `onLog`. */
  debug?: boolean;
  /** When set, `/v1/*` requires `Authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /** Cap on request bodies (bytes); larger ones get 413. Default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Stop a run after this long (ms) and answer 504; default none (the config's timeouts apply). */
  requestTimeoutMs?: number | undefined;
  /**
   * Origins whose web pages may call the server (`--cors-origin`, `*` for any): they get CORS
   * headers; a request with any other `Origin` header is a 403. Default none.
   */
  corsOrigins?: readonly string[] | undefined;
  /**
   * Without a server team, let each request's `model` choose one (`@examples/NAME`, `path:FILE`,
   * `<backend>/<model>`). Default true; `--no-model-routing` sets false.
   */
  modelRouting?: boolean | undefined;
  /** `--teams DIR` (absolute): `path:FILE` names a config file in it; undefined: `path:` is refused. */
  teamsDir?: string | undefined;
  /** `--allow-acting-teams`: a `path:` team that runs commands, writes files or starts MCP servers may run. */
  allowActingTeams?: boolean | undefined;
  /**
   * Chat completions in flight at once; one more gets 503 `server_busy` with `Retry-After`.
   * Default {@link DEFAULT_MAX_IN_FLIGHT}.
   */
  maxInFlight?: number | undefined;
  /** `--stream`: answer `stream: true` with Server-Sent Events; default false (a 501). */
  stream?: boolean | undefined;
  /** Silence in a streamed answer before a `: keep-alive` comment, ms; default 15000. */
  keepAliveMs?: number | undefined;
  /**
   * How long a failed run answers the same request again without a run (ms; 0: never); default
   * `FAILURE_MEMORY_MS` (`./failure-memory.ts`: 180 s).
   */
  failureMemoryMs?: number | undefined;
  /**
   * Time of the runs (their timeouts, the retries' backoff, the logs) and of the keep-alive
   * sleeps; default the system clock. Tests pass a virtual one (with {@link fetch}).
   */
  clock?: Clock | undefined;
  /**
   * `fetch` for the teams' hosted providers; default the global `fetch`. Tests pass one that
   * gates a virtual clock (test/support/io-gate.ts), so retries and timeouts take no real time.
   */
  fetch?: typeof fetch | undefined;
  /** Aborting it stops every run in flight (they answer 503): shutdown past its grace period. */
  signal?: AbortSignal;
  /** Epoch ms; default `Date.now`. */
  now?: () => number;
  /** For execution_metadata.yaml in each run log. */
  cliArgs?: readonly string[];
  /**
   * One line per finished request (access log) and, with `debug`, per trace line; redacted by
   * the app (`src/redact.ts`) unless {@link logSinkRedacts}.
   */
  onLog?: (line: string) => void;
  /**
   * `onLog` writes where every string is redacted already (coord serve's stderr, guarded by
   * `redactWrites`): the app does not redact its lines a second time. Default false.
   */
  logSinkRedacts?: boolean | undefined;
  /** Called when a run ends, with its final state (tests, observability). */
  onRunEnd?: (state: RunState, requestId: string) => void;
  /** Traces each chat completion (`coord serve --tracing`, `COORD_TRACING_ENABLED`). */
  tracing?: Tracing | undefined;
}

/** Counts of requests the app is serving; read by the server for graceful shutdown. */
export interface AppActivity {
  /**
   * Chat completions in flight: each holds its slot until its run log is closed, also after its
   * client went away (the response is gone, the run is still ending).
   */
  readonly inFlight: number;
  /** Resolves once `inFlight` is 0 (at once when it is); never rejects. */
  idle(): Promise<void>;
}

/** The app's per-request variables: the access log's, and the request's trace span. */
export type AppEnv = { Variables: LogVariables & { requestTrace?: RequestTrace } };
