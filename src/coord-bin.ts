#!/usr/bin/env node
/**
 * The `coord` executable (`dist/bin/coord.js`, bundled by rolldown.config.ts): turns on Node's
 * module compile cache, then loads the command line (`cli.ts`). With the cache, Node keeps the
 * V8 bytecode of every module coord loads in `<os.tmpdir()>/node-compile-cache` (or
 * `NODE_COMPILE_CACHE`) and reuses it on the next start instead of compiling the bundle again.
 * `module.enableCompileCache` exists from Node 22.1; on Node 20 nothing changes.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off; a cache that cannot be written is ignored (Node
 * reports it in the return value, never throws).
 *
 * This file imports nothing else statically: every module of the CLI loads after the cache is on.
 */
import module from "node:module";

const withCache = module as { enableCompileCache?: (cacheDir?: string) => unknown };
withCache.enableCompileCache?.();
await import("./cli.js");
