/**
 * Serves the page built by `npm run build` (Vite → dist/web: index.html, share/index.html,
 * assets/) from the package itself: no CDN, works offline. Unknown paths under /assets are 404;
 * any other unknown path gets index.html (the page is one screen).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context } from "hono";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
};

/**
 * dist/web of this package: `../../web` from a chunk of the bundled CLI (dist/bin/chunks/), `../../../web`
 * from dist/src/server/web/, or dist/web from the sources (tests run them directly).
 */
export function defaultAssetsDir(): string {
  const candidates = ["../../web/", "../../../web/", "../../../dist/web/"].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(join(dir, "index.html"))) ?? candidates[0]!;
}

/** A handler for `GET *` serving the built page. */
export function serveWebAssets(assetsDir: string = defaultAssetsDir()) {
  return async (c: Context) => {
    const path = decodeURIComponent(c.req.path);
    let file = normalize(join(assetsDir, path));
    if (!file.startsWith(normalize(assetsDir)) || path.includes("\0")) return c.notFound();
    if (path.endsWith("/")) file = join(file, "index.html");
    let body = await readFile(file).catch(() => undefined);
    if (body === undefined && !path.startsWith("/assets/") && extname(path) === "") {
      body = await readFile(join(assetsDir, "index.html")).catch(() => undefined);
      file = join(assetsDir, "index.html");
    }
    if (body === undefined) {
      return path === "/" || path === "/index.html"
        ? c.text(
            `The web UI is not built: run npm run build in the coord package (${assetsDir}${sep}index.html is missing).`,
            500,
          )
        : c.notFound();
    }
    return c.body(new Uint8Array(body), 200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": path.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : "no-cache",
    });
  };
}
