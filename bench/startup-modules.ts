/**
 * What a run loads before its first model request, and what each piece costs (issue 29, item 4):
 * `node dist/bench/startup-modules.js [runs]`.
 *
 * 1. The built CLI runs a 3-agent team against the fake OpenAI server with the probe
 *    (`probe.ts`) listing every module it loads and stopping it at its first model request.
 * 2. Each chunk of the bundle on that list is then imported alone in a fresh process of each
 *    runtime (Node 20 and the Node 24 of `node24.ts`), after the chunks it imports statically:
 *    its CPU (ms, user + system; compile and evaluation, without Node 24's compile cache) is the
 *    smallest of `runs` (default 3). Node's own modules a chunk loads first (e.g. `node:http2`)
 *    count for the chunk that loads them.
 *
 * Prints the chunks by cost, beyond the cost of importing an empty module the same way, with
 * their size and what is in them (coord's folders and the packages, from the bundle's `// path`
 * comments). `node:` built-ins loaded by an earlier chunk in the real run are counted again
 * here, for each chunk that imports them.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startFakeOpenAIServer } from "../test/support/fake-openai-server.js";
import { agreeingModel } from "./agreeing-model.js";
import { ROOT } from "./measure.js";
import { benchRuntimes } from "./node24.js";
import { CLI, teamYaml } from "./whole-process.js";

const PROBE = fileURLToPath(new URL("./probe.js", import.meta.url));
const RUNS = Number(process.argv[2] ?? 3);

/** The files the CLI loads up to its first model request: `[bytes, absolute path]`, in order. */
async function loadedBeforeFirstRequest(): Promise<[number, string][]> {
  const server = await startFakeOpenAIServer((request) => agreeingModel(request));
  const dir = mkdtempSync(join(tmpdir(), "coord-startup-"));
  try {
    writeFileSync(join(dir, "team.yaml"), teamYaml(server.url, 3));
    const list = join(dir, "loaded.txt");
    writeFileSync(list, "");
    const args = ["--import", PROBE, CLI, "--config", "team.yaml", "--no-display", "What is 2+2?"];
    const env = {
      ...process.env,
      HOME: dir,
      OPENAI_API_KEY: "sk-bench",
      COORD_BENCH_LOADED: list,
      COORD_BENCH_STOP_AT_FIRST_REQUEST: "1",
    };
    // Asynchronous: the fake server answers from this process.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: dir,
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`${CLI} exited ${code}: ${stderr.trim()}`)),
      );
    });
    return readFileSync(list, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" ") as [string, string])
      .map(([bytes, url]) => [Number(bytes), fileURLToPath(url)]);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU (ms) of importing `file` once its static imports are loaded, in a fresh `execPath`. */
function importCpuMs(execPath: string, file: string): number {
  const source = readFileSync(file, "utf8");
  const deps = [...source.matchAll(/^(?:import|export) (?:[^"]*? from )?"(\.{1,2}\/[^"]+)"/gm)].map(
    (match) => pathToFileURL(join(dirname(file), match[1]!)).href,
  );
  const code = [
    "const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };",
    `for (const dep of ${JSON.stringify(deps)}) await import(dep);`,
    "const before = cpu();",
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    "process.stdout.write(String(cpu() - before));",
  ].join("\n");
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const out = execFileSync(execPath, ["--input-type=module", "-e", code], {
      encoding: "utf8",
      env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    best = Math.min(best, Number(out));
  }
  return best;
}

/** What a chunk holds: coord's folders and packages, by the bundle's `// path` comments. */
function contents(file: string): string {
  const names = new Map<string, number>();
  for (const [, path] of readFileSync(file, "utf8").matchAll(/^\/\/ (\S+\.[cm]?[jt]sx?)$/gm)) {
    const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path!)?.[1];
    const name = packageName ?? path!.replace(/^(?:\.\.\/)*/, "").replace(/\/[^/]+$/, "/");
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  return [...names.keys()].slice(0, 6).join(", ");
}

const loaded = await loadedBeforeFirstRequest();
const bundle = join(dirname(CLI), "chunks");
const chunks = loaded.filter(([, path]) => path.startsWith(bundle));
const { runtimes } = benchRuntimes(ROOT);
const emptyDir = mkdtempSync(join(tmpdir(), "coord-startup-empty-"));
const empty = join(emptyDir, "empty.mjs");
writeFileSync(empty, "export {};\n");
const floor = runtimes.map((runtime) => importCpuMs(runtime.execPath, empty));
rmSync(emptyDir, { recursive: true, force: true });
const rows = chunks.map(([bytes, path]) => ({
  path,
  bytes,
  cpu: runtimes.map((runtime, index) =>
    Math.max(0, importCpuMs(runtime.execPath, path) - floor[index]!),
  ),
}));
rows.sort((left, right) => right.cpu[0]! - left.cpu[0]!);
const total = (index: number) => rows.reduce((sum, row) => sum + row.cpu[index]!, 0);
const kb = loaded.reduce((sum, [bytes]) => sum + bytes, 0) / 1024;
process.stdout.write(
  `${loaded.length} files (${kb.toFixed(0)} KB) loaded before the first model request, ` +
    `${chunks.length} of them chunks; their CPU alone, beyond an empty module's ` +
    `(${floor.map((value) => `${value.toFixed(1)} ms`).join(", ")}): ` +
    `${runtimes.map((runtime, index) => `${runtime.label} ${total(index).toFixed(0)} ms`).join(", ")}\n\n`,
);
for (const row of rows) {
  const cpu = row.cpu.map((value) => `${value.toFixed(1).padStart(6)} ms`).join(" ");
  const name = row.path.slice(bundle.length + 1).replace(/-[\w-]{8}\.js$/, "");
  process.stdout.write(
    `${cpu} ${String(Math.round(row.bytes / 1024)).padStart(5)} KB  ${name.padEnd(20)} ${contents(row.path)}\n`,
  );
}
