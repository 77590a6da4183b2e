/**
 * A preload for the whole-process figures of `npm run bench` (`node --import
 * ./dist/bench/probe.js dist/bin/coord.js …`): when the process exits it writes, as JSON, to the
 * file named by `COORD_BENCH_PROBE`: its CPU time (ms, user + system) in total and up to its first
 * HTTP request (undici's `undici:request:create` diagnostics channel, which Node's `fetch`
 * publishes), and its peak RSS (MB). It loads only `node:` built-ins and changes nothing else.
 */
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

/** What the probe writes. */
export interface ProbeReport {
  cpuMs: number;
  /** CPU up to the first HTTP request; undefined when none was made. */
  cpuAtFirstRequestMs: number | undefined;
  peakRssMb: number;
}

const target = process.env.COORD_BENCH_PROBE;
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
let atFirst: number | undefined;
const onRequest = () => {
  atFirst ??= cpuMs(process.cpuUsage());
};
if (target !== undefined) {
  subscribe("undici:request:create", onRequest);
  process.on("exit", () => {
    const report: ProbeReport = {
      cpuMs: cpuMs(process.cpuUsage()),
      cpuAtFirstRequestMs: atFirst,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
    writeFileSync(target, JSON.stringify(report));
  });
}
