/**
 * Where coord's model prices and context windows come from: the `@pydantic/genai-prices`
 * package (its bundled data, never fetched: coord does not call the package's `updatePrices`).
 * The package carries no date for its data offline, so its version names the data: it is shown
 * wherever a cost is (`--json` `price_data`, docs/cost.md). Cheap to import: it reads the
 * package's package.json, not its 800 KB of data.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The package the prices come from. */
export const PRICE_PACKAGE = "@pydantic/genai-prices";

/** The version read by the first {@link priceDataVersion} call. */
let readVersion: string | undefined;

/**
 * The installed version of {@link PRICE_PACKAGE}, or `unknown` when it cannot be read. Read once
 * per process (every run and every priced call names it; the package does not change under a
 * running process).
 */
export function priceDataVersion(): string {
  readVersion ??= readPriceDataVersion();
  return readVersion;
}

function readPriceDataVersion(): string {
  try {
    // The package exports only its entry, not package.json: climb from the entry's folder.
    let dir = dirname(createRequire(import.meta.url).resolve(PRICE_PACKAGE));
    for (let depth = 0; depth < 3; depth++, dir = dirname(dir)) {
      let text: string;
      try {
        text = readFileSync(join(dir, "package.json"), "utf8");
      } catch {
        continue;
      }
      const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (manifest.name === PRICE_PACKAGE && typeof manifest.version === "string") {
        return manifest.version;
      }
    }
  } catch {
    // not installed where Node looks: say so rather than guess
  }
  return "unknown";
}

/** `@pydantic/genai-prices 0.1.8`: the price data's name, as shown next to costs. */
export function priceDataLabel(): string {
  return `${PRICE_PACKAGE} ${priceDataVersion()}`;
}
