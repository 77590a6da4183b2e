/**
 * The floor of the `coord serve` bench: a plain `node:http` server that, for every
 * incoming POST, makes the same model requests coord made for one team run — read from the JSON
 * file given as its argument: `{ "url": model server base, "waves": [[body, …], …] }`, each wave's
 * requests in parallel, the waves one after another, every response read to its end — and then
 * answers with a small chat completion. No parsing, no validation, no logs: what any server that
 * runs the same team must at least do. `node dist/bench/floor-server.js plan.json` listens on a
 * free port of 127.0.0.1 and prints `listening on http://127.0.0.1:PORT` on stderr.
 */
import { Agent, request as httpRequest } from "node:http";
import { readFloorPlan, serveFloor } from "./floor-shell.js";

const plan = readFloorPlan();
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const target = new URL(`${plan.url}/chat/completions`);

function modelCall(body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      target,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.on("data", () => undefined);
        response.on("end", resolve);
        response.on("error", reject);
      },
    );
    call.on("error", reject);
    call.end(body);
  });
}

serveFloor(plan.waves, modelCall);
