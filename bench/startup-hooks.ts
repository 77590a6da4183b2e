/**
 * Module hooks for the start-up attribution (`startup-modules.ts`), registered by `probe.ts`
 * when `COORD_BENCH_LOADED` names a file: every module loaded from a file is appended to it, one
 * `<bytes> <url>` line, in load order. Runs on Node's loader thread; changes no module.
 */
import { appendFileSync } from "node:fs";

interface LoadResult {
  format?: string;
  source?: string | ArrayBuffer | ArrayBufferView;
}

type NextLoad = (url: string, context: unknown) => Promise<LoadResult>;

/** Node's `load` hook: passes the module on unchanged, after writing down its URL and size. */
export async function load(url: string, context: unknown, nextLoad: NextLoad) {
  const result = await nextLoad(url, context);
  const target = process.env.COORD_BENCH_LOADED;
  if (target !== undefined && url.startsWith("file:")) {
    const source = result.source;
    const bytes =
      source === undefined
        ? 0
        : typeof source === "string"
          ? Buffer.byteLength(source)
          : source.byteLength;
    appendFileSync(target, `${bytes} ${url}\n`);
  }
  return result;
}
