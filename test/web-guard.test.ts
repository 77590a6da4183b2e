/**
 * The browser UI's server against hostile pages and clients (docs/security.md), over real sockets
 * to the built CLI bound to 0.0.0.0:
 *
 * - DNS rebinding: a request naming another host (`Host: attacker.example`) is refused on every
 *   bind — no session is listed, no run starts — while loopback names and this machine's own
 *   addresses are served;
 * - a 50 MB body is refused with 413 before it is read (declared, or streamed in chunks);
 * - a POST whose type is not exactly `application/json` (`text/plain; application/json`) is 415;
 * - the socket time limits close a silent connection but not the page's WebSocket.
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import { startWebCli, type WebCli } from "./support/web.js";

let cli: WebCli | undefined;
afterEach(async () => {
  await cli?.stop();
  cli = undefined;
});

interface Reply {
  status: number;
  text: string;
  /** Body bytes the client had sent when the answer came. */
  sent: number;
}

/**
 * One request with exactly these headers. With `bodyBytes`, sends that many bytes in 64 KiB
 * chunks (declared with Content-Length unless `chunked`) and stops sending once answered.
 */
function send(
  port: number,
  options: {
    method?: string;
    path: string;
    headers: Record<string, string>;
    body?: string;
    bodyBytes?: number;
    chunked?: boolean;
  },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers = { ...options.headers };
    if (options.bodyBytes !== undefined && !options.chunked)
      headers["content-length"] = String(options.bodyBytes);
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path, headers },
      (res) => {
        answered = true;
        const at = sent;
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, text, sent: at });
          req.destroy();
        });
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (options.bodyBytes === undefined) return void req.end(options.body);
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && sent < options.bodyBytes!) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.write('{"question": "');
    pump();
  });
}

/** This machine's first non-loopback IPv4 address, if it has one. */
function ownAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal)?.address;
}

describe("coord --web --web-host 0.0.0.0", () => {
  test(
    "row 6: Host: attacker.example is refused (no sessions listed, no run started); loopback and own addresses are served",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      cli = await startWebCli(["--web-host", "0.0.0.0", "--config", "@examples/scripted_team"], {
        ...sandbox,
      });
      const port = Number(new URL(cli.url).port);
      const attacker = { host: `attacker.example:${port}` };
      const listed = await send(port, { path: "/api/sessions", headers: attacker });
      expect(listed.status).toBe(403);
      expect(listed.text).not.toContain("session");
      const page = await send(port, { path: "/", headers: attacker });
      expect(page.status).toBe(403);
      const asked = await send(port, {
        method: "POST",
        path: "/api/ask",
        headers: {
          ...attacker,
          origin: `http://attacker.example:${port}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ question: "What is 2+2?" }),
      });
      expect(asked.status).toBe(403);

      const local = await send(port, {
        path: "/api/session",
        headers: { host: `127.0.0.1:${port}` },
      });
      expect(local.status).toBe(200);
      expect(JSON.parse(local.text)).toMatchObject({ turns: [] });
      expect(
        (await send(port, { path: "/api/session", headers: { host: `localhost:${port}` } })).status,
      ).toBe(200);
      const own = ownAddress();
      if (own !== undefined) {
        expect(
          (await send(port, { path: "/api/session", headers: { host: `${own}:${port}` } })).status,
        ).toBe(200);
      }
      expect(cli.stderr()).toContain("the page answers only to");
    },
  );

  test(
    "row 14: a 50 MB question is a 413 before it is read; text/plain; application/json is a 415",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      cli = await startWebCli(["--web-host", "0.0.0.0", "--config", "@examples/scripted_team"], {
        ...sandbox,
      });
      const port = Number(new URL(cli.url).port);
      const headers = { host: `127.0.0.1:${port}`, "content-type": "application/json" };
      const FIFTY_MB = 50 * 1024 * 1024;
      const declared = await send(port, {
        method: "POST",
        path: "/api/ask",
        headers,
        bodyBytes: FIFTY_MB,
      });
      expect(declared.status).toBe(413);
      expect(declared.sent).toBeLessThan(FIFTY_MB);
      const streamed = await send(port, {
        method: "POST",
        path: "/api/ask",
        headers,
        bodyBytes: FIFTY_MB,
        chunked: true,
      });
      expect(streamed.status).toBe(413);
      expect(streamed.sent).toBeLessThan(8 * 1024 * 1024);

      for (const type of ["text/plain; application/json", "text/plain", "application/jsonx"]) {
        const reply = await send(port, {
          method: "POST",
          path: "/api/ask",
          headers: { ...headers, "content-type": type },
          body: JSON.stringify({ question: "What is 2+2?" }),
        });
        expect(reply.status, type).toBe(415);
      }
      const bodyless = await send(port, {
        method: "POST",
        path: "/api/sessions/new",
        headers: { host: `127.0.0.1:${port}` },
      });
      expect(bodyless.status).toBe(415);
      // Nothing ran: the session has no turn.
      const session = await send(port, { path: "/api/session", headers });
      expect(JSON.parse(session.text)).toMatchObject({ turns: [] });
    },
  );

  test(
    "the socket limits close a silent connection, not the page's WebSocket",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      cli = await startWebCli(["--config", "@examples/scripted_team"], {
        ...sandbox,
        env: { COORD_SERVER_IDLE_TIMEOUT_MS: "300", COORD_SERVER_HEADERS_TIMEOUT_MS: "300" },
      });
      const port = Number(new URL(cli.url).port);
      const ws = connect(port, "127.0.0.1");
      let received = Buffer.alloc(0);
      let wsClosed = false;
      const wakers = new Set<() => void>();
      ws.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        for (const wake of wakers) wake();
      });
      ws.on("close", () => (wsClosed = true));
      const until = (check: () => boolean) =>
        new Promise<void>((resolve) => {
          const wake = () => {
            if (!check()) return;
            wakers.delete(wake);
            resolve();
          };
          wakers.add(wake);
          wake();
        });
      ws.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
      await until(() => received.includes("\r\n\r\n"));
      expect(received.toString("latin1")).toMatch(/^HTTP\/1\.1 101 /);
      // A silent connection opened now is closed once the idle limit passed...
      const silent = connect(port, "127.0.0.1");
      silent.on("error", () => undefined);
      await new Promise((resolve) => silent.on("close", resolve));
      // ...while the WebSocket still answers a ping (masked, empty) with a pong.
      expect(wsClosed).toBe(false);
      const before = received.length;
      ws.write(Buffer.from([0x89, 0x80, 1, 2, 3, 4]));
      await until(() => received.subarray(before).includes(Buffer.from([0x8a, 0x00])));
      ws.destroy();
    },
  );
});
