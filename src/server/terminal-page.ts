/**
 * The page of the terminal-in-browser server (src/server/terminal-web.ts): one full-window
 * xterm.js terminal, fitted to the window (@xterm/addon-fit), connected to `/pty`. Loads xterm's
 * prebuilt ES modules from `/assets/`; no bundler, no network beyond the local server.
 * `document.body.dataset.state` is `connecting`, then `open`, then `closed`.
 */

/** The page's HTML for a terminal titled `title`. */
export function terminalPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/assets/xterm.css">
<style>
  html, body { margin: 0; height: 100%; background: #101010; }
  #terminal { position: absolute; inset: 0; padding: 6px; }
</style>
</head>
<body data-state="connecting">
<div id="terminal"></div>
<script type="module">
import { Terminal } from "/assets/xterm.mjs";
import { FitAddon } from "/assets/addon-fit.mjs";

const term = new Terminal({
  fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
  fontSize: 14,
  lineHeight: 1.15,
  cursorBlink: false,
  scrollback: 5000,
  theme: { background: "#101010" },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open(document.getElementById("terminal"));
fit.fit();
const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new WebSocket(scheme + "://" + location.host + "/pty?cols=" + term.cols + "&rows=" + term.rows);
const send = (message) => {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
};
socket.onopen = () => { document.body.dataset.state = "open"; };
socket.onmessage = (event) => term.write(event.data);
socket.onclose = (event) => {
  document.body.dataset.state = "closed";
  term.write("\\r\\n\\x1b[2m[" + (event.reason || "disconnected") + ": reload the page to view again]\\x1b[0m\\r\\n");
};
term.onData((data) => send({ type: "input", data }));
term.onResize(({ cols, rows }) => send({ type: "resize", cols, rows }));
window.addEventListener("resize", () => fit.fit());
term.focus();
</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );
}
