/**
 * A secret split across stream chunks never reaches a file: a fake
 * provider (Chat Completions over a real socket) streams OPENAI_API_KEY's value in three text
 * deltas; the built CLI's run log (events.jsonl and every other file) and the bundle
 * `coord export` uploads (through a fake `gh`) hold no piece of it, and the text around it is
 * intact, with the redaction marker where the key was. In process, every subscriber of the live
 * run (displays, web sockets, the server) gets the same re-chunked, redacted deltas.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, test } from "vitest";
import { systemClock } from "../src/clock.js";
import { parseConfigText } from "../src/config/index.js";
import type { CoordEvent } from "../src/events/index.js";
import { startRun } from "../src/runner/run-team.js";
import { makeSandbox, onlyAttemptDir, runCli } from "./support/cli.js";
import { installFakeGh } from "./support/fake-gh.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

/** Not key-shaped: only known because the environment names it OPENAI_API_KEY. */
const KEY = "QZ7wLp93kXv2TnB8rJ4mYc6HdeFg";
const PIECES = [KEY.slice(0, 9), KEY.slice(9, 18), KEY.slice(18)];

let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Every file under `dir`, recursively, as [path, text]. */
async function filesUnder(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push([path, await readFile(path, "utf8")]);
  }
  return out;
}

interface LoggedEvent {
  type: string;
  seq: number;
  text?: string;
}

function parseLines(text: string): LoggedEvent[] {
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as LoggedEvent);
}

/** The text the agent streamed: its text deltas joined (they may be re-chunked). */
function streamedText(events: LoggedEvent[]): string {
  return events
    .filter((event) => event.type === "text-delta")
    .map((event) => event.text)
    .join("");
}

function expectNoPiece(where: string, text: string): void {
  for (const piece of PIECES) {
    if (text.includes(piece)) throw new Error(`${where} holds a piece of the key (${piece})`);
  }
}

describe("a key streamed in pieces", () => {
  test("is redacted whole in events.jsonl and in what coord export uploads", async () => {
    const chunks = [`Your key is ${PIECES[0]}`, PIECES[1]!, `${PIECES[2]}, keep it safe.`];
    // Every call streams the key in three deltas, then answers (a workflow call when offered).
    provider = await startFakeOpenAIServer((request) => ({
      text: chunks.join(""),
      textChunks: chunks,
      ...(JSON.stringify(request.body).includes("new_answer")
        ? { toolCalls: [{ id: "c1", name: "new_answer", arguments: { content: "Done." } }] }
        : {}),
    }));
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `agents:
  - id: solo
    backend: { type: chatcompletion, model: m, base_url: "${provider.url}", api_key: "\${OPENAI_API_KEY}" }
`,
    );
    const run = await runCli(["--config", "team.yaml", "--no-display", "What is my key?"], {
      ...sandbox,
      env: { OPENAI_API_KEY: KEY },
    });
    expect(run.code, run.stderr).toBe(0);
    // The provider really streamed the key, in three deltas.
    expect(provider.requests.length).toBeGreaterThan(0);

    const attempt = await onlyAttemptDir(sandbox.cwd);
    const events = parseLines(await readFile(join(attempt, "events.jsonl"), "utf8"));
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(streamedText(events)).toBe("Your key is <redacted>, keep it safe.");
    for (const [path, text] of await filesUnder(join(sandbox.cwd, "agent_outputs")))
      expectNoPiece(path, text);

    const gh = await installFakeGh();
    const logDir = join(attempt, "..", "..");
    const exported = await runCli(["export", logDir, "--yes"], { ...sandbox, env: gh.env });
    expect(exported.code, exported.stderr).toBe(0);
    const [gist] = await gh.gists();
    const uploaded = Object.entries(gist!.files);
    expect(uploaded.some(([name]) => name.endsWith("events.jsonl"))).toBe(true);
    for (const [name, content] of uploaded) expectNoPiece(`exported ${name}`, content);
    const exportedEvents = uploaded.find(([name]) => name.endsWith("events.jsonl"))![1];
    expect(streamedText(parseLines(exportedEvents))).toBe("Your key is <redacted>, keep it safe.");
  });

  test("no subscriber of the live run sees a piece of it (web sockets, displays, the server)", async () => {
    const chunks = [`Your key is ${PIECES[0]}`, PIECES[1]!, `${PIECES[2]}, keep it safe.`];
    provider = await startFakeOpenAIServer(() => ({ text: chunks.join(""), textChunks: chunks }));
    const config = parseConfigText(
      `agents:\n  - id: solo\n    backend: { type: chatcompletion, model: m, base_url: "${provider.url}" }\n`,
      { env: {} },
    ).config;
    const handle = await startRun({
      config,
      mode: "single",
      agentIndexes: [0],
      question: "What is my key?",
      env: { OPENAI_API_KEY: KEY },
      cwd: tmpdir(),
      clock: systemClock,
    });
    const seen: CoordEvent[] = [];
    handle.live.subscribe((event) => seen.push(event));
    await handle.done;
    expect(seen.map((event) => event.seq)).toEqual(seen.map((_, index) => index + 1));
    const text = seen
      .flatMap((event) => (event.type === "text-delta" ? [event.text] : []))
      .join("");
    expect(text).toContain("Your key is <redacted>, keep it safe.");
    expectNoPiece("the live run's events", JSON.stringify(seen));
  });
});
