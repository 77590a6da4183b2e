/**
 * A preload for the whole-process figures of `npm run bench` (`node --import
 * ./dist/bench/probe.js dist/bin/coord.js …`): when the process exits it writes, as JSON, to the
 * file named by `COORD_BENCH_PROBE`: its CPU time (ms, user + system) in total, up to its first
 * HTTP request (undici's `undici:request:create` diagnostics channel, which Node's `fetch`
 * publishes) and up to the end of its last response (`undici:request:trailers`), and its peak
 * RSS (MB). It loads only `node:` built-ins and changes nothing else.
 *
 * For the start-up attribution (`startup-modules.ts`): with `COORD_BENCH_LOADED` set it also
 * appends the URL of every module the process loads to that file (`startup-hooks.ts`, run on
 * Node's loader thread: slower loading, so no CPU figure of such a run is used), and with
 * `COORD_BENCH_STOP_AT_FIRST_REQUEST=1` it exits (code 0) when the first request is created.
 */
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
import { register } from "node:module";

/** What the probe writes. */
export interface ProbeReport {
  cpuMs: number;
  /** CPU up to the first HTTP request; undefined when none was made. */
  cpuAtFirstRequestMs: number | undefined;
  /** CPU up to the end of the last response; undefined when none was read. */
  cpuAtLastResponseMs: number | undefined;
  peakRssMb: number;
}

const target = process.env.COORD_BENCH_PROBE;
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
let atFirst: number | undefined;
let atLast: number | undefined;
const onRequest = () => {
  atFirst ??= cpuMs(process.cpuUsage());
  if (process.env.COORD_BENCH_STOP_AT_FIRST_REQUEST === "1") process.exit(0);
};
if (process.env.COORD_BENCH_LOADED !== undefined) {
  register(new URL("./startup-hooks.js", import.meta.url));
}
if (target !== undefined || process.env.COORD_BENCH_STOP_AT_FIRST_REQUEST === "1") {
  subscribe("undici:request:create", onRequest);
}
if (target !== undefined) {
  subscribe("undici:request:trailers", () => (atLast = cpuMs(process.cpuUsage())));
  process.on("exit", () => {
    const report: ProbeReport = {
      cpuMs: cpuMs(process.cpuUsage()),
      cpuAtFirstRequestMs: atFirst,
      cpuAtLastResponseMs: atLast,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
    writeFileSync(target, JSON.stringify(report));
  });
}
