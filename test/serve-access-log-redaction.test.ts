/**
 * `coord serve`'s access log is redacted once (docs/server.md "Security"): by the app, or — when
 * `logSinkRedacts` says the sink redacts everything it writes (coord serve's stderr, guarded by
 * `redactWrites`) — by the sink alone. Either way no key reaches the log: a client that sends a
 * key as its `x-request-id` sees it replaced in the line.
 */
import { expect, test } from "vitest";
import { createApp } from "../src/server/app.js";
import { REDACTED, redactWrites, registerSecret } from "../src/redact.js";

const SECRET = "sk-coordtest-access-log-0123456789";
registerSecret(SECRET);

function appWith(onLog: (line: string) => void, logSinkRedacts?: boolean) {
  return createApp({ env: {}, cwd: process.cwd(), version: "0.0.0-test", onLog, logSinkRedacts });
}

test("by default the app redacts each line before its onLog", async () => {
  const lines: string[] = [];
  const response = await appWith((line) => lines.push(line)).request("/v1/models", {
    headers: { "x-request-id": SECRET },
  });
  expect(response.status).toBe(200);
  expect(lines).toEqual([expect.stringMatching(/ GET \/v1\/models 200 \d+ ms$/)]);
  expect(lines[0]).toContain(REDACTED);
  expect(lines[0]).not.toContain(SECRET);
});

test("with logSinkRedacts the line reaches the sink as it is, and the guarded sink redacts it", async () => {
  const received: string[] = [];
  const written: string[] = [];
  const sink = {
    write(chunk: unknown): boolean {
      written.push(String(chunk));
      return true;
    },
  };
  redactWrites(sink);
  const app = appWith((line) => {
    received.push(line);
    sink.write(`${line}\n`);
  }, true);
  await app.request("/v1/models", { headers: { "x-request-id": SECRET } });
  // The app did not redact (the sink does it, once)…
  expect(received).toEqual([expect.stringContaining(SECRET)]);
  // …and what was written carries no key.
  expect(written).toHaveLength(1);
  expect(written[0]).toContain(REDACTED);
  expect(written[0]).not.toContain(SECRET);
});
