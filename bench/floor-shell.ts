/**
 * What the two floor servers of the `coord serve` bench share (`floor-server.ts`,
 * `sdk-floor-server.ts`): the plan file they are given and the `node:http` server that, for every
 * incoming POST, makes one team run's model requests — each wave's in parallel, the waves one
 * after another — and answers with a small chat completion.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The plan file: `{ "url": model server base, "waves": [[request body, …], …] }`. */
export interface FloorPlan {
  url: string;
  waves: string[][];
}

/** The plan file named by the process's first argument. */
export function readFloorPlan(): FloorPlan {
  return JSON.parse(readFileSync(process.argv[2]!, "utf8")) as FloorPlan;
}

const ANSWER = JSON.stringify({
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "The answer is 4." } }],
});

/**
 * Listens on a free port of 127.0.0.1, prints `listening on http://127.0.0.1:PORT` on stderr,
 * answers every request after `modelCall` ran on each of `waves` (500 with the error when one
 * fails), and exits on SIGTERM.
 */
export function serveFloor<T>(
  waves: readonly (readonly T[])[],
  modelCall: (call: T) => Promise<void>,
): void {
  const server = createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      void (async () => {
        for (const wave of waves) await Promise.all(wave.map(modelCall));
        res.writeHead(200, { "content-type": "application/json" }).end(ANSWER);
      })().catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.stderr.write(`listening on http://127.0.0.1:${port}\n`);
  });
  process.once("SIGTERM", () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
