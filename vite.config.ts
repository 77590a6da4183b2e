// Builds the browser UI (src/ui/web) into dist/web at `npm run build`: the live page of
// `coord --web` (index.html) and the static share viewer (share/index.html), one build with two
// entries sharing the reducer and components. Relative asset paths, so dist/web can be served
// from any folder (docs/web.md "Hosting the share viewer").
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL("./src/ui/web/", import.meta.url));

export default defineConfig({
  root,
  base: "./",
  plugins: [react()],
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("./dist/web/", import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      input: {
        live: `${root}index.html`,
        share: `${root}share/index.html`,
      },
    },
  },
});
