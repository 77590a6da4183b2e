/**
 * The browser UI's app through `app.request()` on a host double: the JSON API's statuses, the
 * origin and host guards, workspace endpoints, and the built page with its fallback.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { createWebApp } from "./web-app.js";
import { type SessionView, type WebHost, WebHostError } from "./web-host.js";

let assets: string;
let workspace: string;
const asked: string[] = [];

const ROOT = () => ({
  id: "alice/snapshots/agent1.1",
  label: "agent1.1",
  path: workspace,
  agentId: "alice",
  snapshot: "agent1.1",
  final: false,
  live: false,
  latest: true,
});

const VIEW: SessionView = { id: "s1", title: "t", askable: true, busy: false, turns: [] };

const host: WebHost = {
  current: () => VIEW,
  listSessions: async () => [],
  openSession: async (id) => {
    throw new WebHostError(404, `no session ${id}`);
  },
  newSession: async () => VIEW,
  ask: async (question) => {
    if (question === "again") throw new WebHostError(409, "a turn is running: wait for it to end");
    asked.push(question);
    return { ...VIEW, busy: true };
  },
  subscribe: async () => () => undefined,
  workspaceRoots: async (key) => (key === "s1/1" ? [ROOT()] : []),
  onChange: () => () => undefined,
};

beforeAll(async () => {
  assets = await mkdtemp(join(tmpdir(), "coord-assets-"));
  await mkdir(join(assets, "assets"));
  await mkdir(join(assets, "share"));
  await writeFile(join(assets, "index.html"), "<html>live</html>");
  await writeFile(join(assets, "share", "index.html"), "<html>share</html>");
  await writeFile(join(assets, "assets", "app.js"), "console.log(1)");
  workspace = await mkdtemp(join(tmpdir(), "coord-ws-"));
  await writeFile(join(workspace, "a.txt"), "hello");
});

const app = () => createWebApp({ host, assetsDir: assets }).app;
const local = { host: "127.0.0.1:8000" };
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  app().request(path, {
    method: "POST",
    headers: { ...local, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

test("the session, asking, and the host's errors with their status", async () => {
  expect(await (await app().request("/api/session", { headers: local })).json()).toEqual(VIEW);
  const ok = await post("/api/ask", { question: "  Why?  " });
  expect(ok.status).toBe(200);
  expect(asked).toEqual(["Why?"]);
  expect((await post("/api/ask", { question: " " })).status).toBe(400);
  const busy = await post("/api/ask", { question: "again" });
  expect(busy.status).toBe(409);
  expect(await busy.json()).toEqual({ error: "a turn is running: wait for it to end" });
  expect((await post("/api/sessions/nope/open", {})).status).toBe(404);
  const notJson = await app().request("/api/ask", {
    method: "POST",
    headers: { ...local, "content-type": "text/plain" },
    body: "question=x",
  });
  expect(notJson.status).toBe(415);
  expect((await app().request("/api/unknown", { headers: local })).status).toBe(404);
});

test("another origin or an unknown host is refused", async () => {
  expect(
    (await post("/api/ask", { question: "x" }, { origin: "https://evil.example" })).status,
  ).toBe(403);
  expect(
    (await post("/api/ask", { question: "x" }, { origin: "http://127.0.0.1:8000" })).status,
  ).toBe(200);
  expect((await app().request("/api/session", { headers: { host: "evil.example" } })).status).toBe(
    403,
  );
  const named = createWebApp({ host, assetsDir: assets, allowedHostNames: ["10.0.0.5"] }).app;
  expect((await named.request("/api/session", { headers: { host: "10.0.0.5:8000" } })).status).toBe(
    200,
  );
  expect((await named.request("/api/session", { headers: { host: "evil.example" } })).status).toBe(
    403,
  );
});

test("workspace endpoints: roots, a file, and an unknown root", async () => {
  const roots = await app().request("/api/runs/s1/1/roots", { headers: local });
  expect(await roots.json()).toEqual([ROOT()]);
  const files = (root: string, path: string) =>
    app().request(
      `/api/runs/s1/1/files?root=${encodeURIComponent(root)}&path=${encodeURIComponent(path)}`,
      { headers: local },
    );
  const file = await files("alice/snapshots/agent1.1", "a.txt");
  expect(await file.json()).toMatchObject({ kind: "file", preview: "text", text: "hello" });
  const unknown = await files("alice/snapshots/agent1.2", "a.txt");
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toEqual({
    error:
      'run s1/1 has no workspace "alice/snapshots/agent1.2" (live workspaces are offered only while the run goes on)',
  });
  expect((await files("alice/snapshots/agent1.1", "../x")).status).toBe(403);
});

test("the built page: index, share viewer, assets, and the fallback", async () => {
  const index = await app().request("/", { headers: local });
  expect(await index.text()).toBe("<html>live</html>");
  expect(index.headers.get("content-type")).toContain("text/html");
  expect(await (await app().request("/share/?gist=abc", { headers: local })).text()).toBe(
    "<html>share</html>",
  );
  const script = await app().request("/assets/app.js", { headers: local });
  expect(script.headers.get("content-type")).toContain("text/javascript");
  expect((await app().request("/assets/missing.js", { headers: local })).status).toBe(404);
  expect(await (await app().request("/some/view", { headers: local })).text()).toBe(
    "<html>live</html>",
  );
  const unbuilt = createWebApp({ host, assetsDir: join(assets, "nothing") }).app;
  const missing = await unbuilt.request("/", { headers: local });
  expect(missing.status).toBe(500);
  expect(await missing.text()).toContain("The web UI is not built: run npm run build");
});
