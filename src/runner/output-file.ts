/**
 * `--output-file PATH` (spec section 4.1: "write the final answer to this file; works in any
 * mode"). What the file holds in each mode (docs/cli.md "--output-file"):
 * - a question (`coord "…"`, `--plan`): that run's final answer;
 * - the interactive chat and `--web`: the latest answered turn's final answer — the file is
 *   rewritten after every turn that ends with an answer (a failed or stopped turn leaves it);
 * - `--execute-plan` / `--plan-and-execute`: every chunk's answer this command ran, each under a
 *   `## Chunk N of M` heading, in order (the planning run's answer, the plan, stays in the plan
 *   folder).
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * Writes `answer` (plus a final newline) to the file, creating its folder; replaces what was there.
 *
 * @param cwd The folder a relative `file` resolves against.
 * @returns The absolute path written.
 * @throws Error (from node:fs) when the folder or file cannot be written.
 */
export async function writeOutputFile(cwd: string, file: string, answer: string): Promise<string> {
  const path = resolve(cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${answer.trimEnd()}\n`);
  return path;
}

/**
 * Writes one plan chunk's answer under a `## Chunk N of M` heading: the first chunk of this
 * command starts the file afresh, later ones are appended after a blank line.
 *
 * @param chunk.first True for the first chunk this command writes (the file is replaced).
 * @returns The absolute path written.
 * @throws Error (from node:fs) when the folder or file cannot be written.
 */
export async function writeChunkAnswer(
  cwd: string,
  file: string,
  chunk: { index: number; count: number; first: boolean },
  answer: string,
): Promise<string> {
  const section = `## Chunk ${chunk.index} of ${chunk.count}\n\n${answer.trim()}\n`;
  const path = resolve(cwd, file);
  await mkdir(dirname(path), { recursive: true });
  if (chunk.first) await writeFile(path, section);
  else await appendFile(path, `\n${section}`);
  return path;
}
