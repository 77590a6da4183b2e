/**
 * `coord --web`'s address and guards (spec section 4.1, 8 "Browser UI default port / host"):
 * 127.0.0.1:8000 by default, `--web-port` and `--web-host` honoured, a port in use is a clear
 * exit 1, the network warning, the web flags refused without --web, and other origins refused.
 */
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { createServer, type Server } from "node:net";
import { afterEach, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import type { FakeOpenAIServer } from "./support/fake-openai-server.js";
import { fakeTeam, startWebCli, type WebCli } from "./support/web.js";

let cli: WebCli | undefined;
let server: FakeOpenAIServer | undefined;
let blocker: Server | undefined;
afterEach(async () => {
  await cli?.stop();
  await server?.close();
  await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
  cli = server = blocker = undefined;
});

/** Listens on 127.0.0.1 on a free port (to hold it, or to learn a free one). */
async function listenFree(): Promise<{ port: number; server: Server }> {
  const held = createServer();
  await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
  return { port: (held.address() as { port: number }).port, server: held };
}

/** GET with a Host header fetch() would not send (a DNS-rebinding page's request). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    call.on("error", reject);
    call.end();
  });
}

async function team() {
  const box = await makeSandbox();
  server = await fakeTeam(box.cwd);
  return box;
}

test("binds 127.0.0.1:8000 by default", async () => {
  const box = await team();
  const command = ["--web", "--no-browser"];
  try {
    cli = await startWebCli(["--config", "team.yaml"], { ...box, command });
    expect(cli.url).toBe("http://127.0.0.1:8000/");
    expect((await fetch(`${cli.url}api/session`)).status).toBe(200);
  } catch (error) {
    // Another program holds 8000 on this shared machine: the default still shows in the error.
    expect(String(error)).toContain("cannot listen on 127.0.0.1:8000: the port is in use");
  }
});

test("--web-port and --web-host are honoured; a host other machines reach is warned about", async () => {
  const box = await team();
  const free = await listenFree();
  await new Promise((resolve) => free.server.close(resolve));
  const command = [
    "--web",
    "--no-browser",
    "--web-port",
    String(free.port),
    "--web-host",
    "0.0.0.0",
  ];
  cli = await startWebCli(["--config", "team.yaml"], { ...box, command });
  expect(cli.url).toBe(`http://127.0.0.1:${free.port}/`);
  expect(cli.stderr()).toContain(
    "coord: warning: --web-host 0.0.0.0 lets anyone on the network who can reach this machine open the page and run the team with your API keys",
  );
  const page = await fetch(cli.url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root">');
  expect(await cli.stop()).toBe(0);
  cli = undefined;

  const local = await listenFree();
  await new Promise((resolve) => local.server.close(resolve));
  cli = await startWebCli(["--config", "team.yaml"], {
    ...box,
    command: ["--web", "--no-browser", "--web-port", String(local.port), "--web-host", "127.0.0.1"],
  });
  expect(cli.url).toBe(`http://127.0.0.1:${local.port}/`);
  expect(cli.stderr()).not.toContain("warning");
});

test("a port in use is a one-line error and exit 1", async () => {
  const box = await team();
  const held = await listenFree();
  blocker = held.server;
  const result = await runCli(
    ["--web", "--no-browser", "--web-port", String(held.port), "--config", "team.yaml"],
    box,
  );
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    new RegExp(
      `^coord: cannot listen on 127\\.0\\.0\\.1:${held.port}: the port is in use; pick another with --web-port \\(.*\\)\\n$`,
    ),
  );
});

test("the web flags without --web are refused, not ignored", async () => {
  const box = await team();
  for (const [flag, ...value] of [
    ["--web-port", "9000"],
    ["--web-host", "0.0.0.0"],
    ["--no-browser"],
  ]) {
    const result = await runCli(["--config", "team.yaml", flag!, ...value, "What?"], box);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`coord: ${flag} goes with --web: coord --web ${flag} …\n`);
  }
});

test("other sites cannot drive the team: foreign origins and hosts are refused", async () => {
  const box = await team();
  cli = await startWebCli(["--config", "team.yaml"], box);
  const ask = (headers: Record<string, string>) =>
    fetch(`${cli!.url}api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ question: "Spend my money" }),
    });
  expect((await ask({ origin: "https://evil.example" })).status).toBe(403);
  expect(await statusWithHost(`${cli.url}api/session`, "evil.example:8000")).toBe(403);
  const view = (await (await fetch(`${cli.url}api/session`)).json()) as { turns: unknown[] };
  expect(view.turns).toEqual([]);
  // The page's own requests pass.
  const own = await ask({ origin: cli.url.replace(/\/$/, "") });
  expect(own.status).toBe(200);
});

test.each([
  ["SIGINT", "Ctrl+C"],
  ["SIGHUP", "coord: SIGHUP: stopping the web UI (send it again to quit at once)"],
] as const)(
  "%s mid-run stops the turn (logged, session interrupted) and exits 0",
  async (signal, said) => {
    const box = await makeSandbox();
    server = await fakeTeam(box.cwd, { beforeFinal: () => new Promise(() => undefined) });
    cli = await startWebCli(["--config", "team.yaml", "What is six times seven?"], box);
    interface View {
      turns: { logDir: string }[];
    }
    let logDir = "";
    await expect
      .poll(
        async () => {
          const view = (await (await fetch(`${cli!.url}api/session`)).json()) as View;
          logDir = view.turns[0]?.logDir ?? "";
          const events = await readFile(join(logDir, "events.jsonl"), "utf8").catch(() => "");
          return events.includes('"type":"winner"');
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(await cli.stop(signal)).toBe(0);
    expect(cli.stderr()).toContain(said);
    cli = undefined;
    const lines = (await readFile(join(logDir, "events.jsonl"), "utf8")).trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "run-end", reason: "shutdown" });
    const registry = JSON.parse(
      await readFile(join(box.home, ".coord", "sessions.json"), "utf8"),
    ) as {
      sessions: { status: string; turns: number }[];
    };
    expect(registry.sessions).toEqual([
      expect.objectContaining({ status: "interrupted", turns: 1 }),
    ]);
  },
);
