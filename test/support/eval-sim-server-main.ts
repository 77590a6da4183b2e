/**
 * The simulated agents of `coord eval` (test/support/eval-sim.ts) as a server of their own, to
 * run `coord eval` by hand on a real GSM8K-format file:
 *
 *     node dist/test/support/eval-sim-server-main.js DATA.jsonl [--p 0.7 | --p 0.5,0.6,0.7]
 *         [--q 0.7] [--seed 1] [--delay-ms 0] [--port 0] [--agents 3]
 *
 * Each agent answers an item right with probability p (one for all, or one per agent in config
 * order; its truth: the number after `####` in the file's answer), votes for the answer holding
 * its own number (with `--q`: recognises a right answer shown to it with probability q and votes
 * for it), and the presenter writes the majority number. Prints `LISTENING http://127.0.0.1:PORT/v1` once ready, then writes a team
 * config for that URL to stdout's next lines (`CONFIG` then YAML, ended by `END`); exits on
 * SIGTERM/SIGINT after printing the calls received by kind.
 */
import { readFile } from "node:fs/promises";
import { gsm8kReference } from "../../src/eval/numbers.js";
import { simulatedAgents, simulatedTeamConfig } from "./eval-sim.js";
import { startFakeOpenAIServer } from "./fake-openai-server.js";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value)) throw new Error(`${name} needs a number`);
  return value;
}

const data = process.argv[2];
if (data === undefined || data.startsWith("--")) {
  process.stderr.write("usage: eval-sim-server-main.js DATA.jsonl [--p 0.7] [--seed 1]\n");
  process.exit(1);
}
const items = (await readFile(data, "utf8"))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => {
    const parsed = JSON.parse(line) as { question: string; answer: string };
    return { question: parsed.question, value: gsm8kReference(parsed.answer) ?? Number.NaN };
  });
const delayMs = flag("--delay-ms", 0);
const pAt = process.argv.indexOf("--p");
const pList = (pAt < 0 ? "0.7" : (process.argv[pAt + 1] ?? "")).split(",").map(Number);
if (pList.some((value) => !Number.isFinite(value))) throw new Error("--p needs numbers");
const q = process.argv.includes("--q") ? flag("--q", 1) : undefined;
const sim = simulatedAgents({
  p:
    pList.length === 1
      ? pList[0]!
      : Object.fromEntries(pList.map((value, index) => [`sim-${index + 1}`, value])),
  ...(q !== undefined ? { q } : {}),
  seed: flag("--seed", 1),
  items,
  ...(delayMs > 0 ? { delayMs } : {}),
});
const server = await startFakeOpenAIServer(sim.handler, { port: flag("--port", 0) });
process.stdout.write(`LISTENING ${server.url}\n`);
process.stdout.write(`CONFIG\n${simulatedTeamConfig(server.url, flag("--agents", 3))}END\n`);

const stop = () => {
  process.stderr.write(`calls: ${JSON.stringify(sim.calls)}\n`);
  void server.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
