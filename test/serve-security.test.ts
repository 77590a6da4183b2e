/**
 * `coord serve` against hostile requests, over a real socket to the built CLI (docs/server.md
 * "Security"): one test per finding.
 *
 * - a `text/plain` or form body (what any web page can post cross-site without a preflight) is a
 *   415, and an `Origin` that is not allowed a 403; allowed origins get CORS headers;
 * - binding a non-loopback address without COORD_SERVER_API_KEY prints a warning; `/health`
 *   says whether auth is on and no longer shows the config's absolute path;
 * - `path:` names only regular `.yaml`/`.yml` files under the operator's `--teams` folder (not
 *   /etc/passwd, /dev/zero, a symbolic link out, a FIFO, a file over 1 MiB); errors never echo a
 *   file's contents; a request naming a FIFO does not stall the requests after it;
 * - a bad port or an overlong timeout is a one-line usage error (exit 1), never "internal error".
 */
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import { startServe, type ServeProcess } from "./support/serve.js";

let serve: ServeProcess | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  serve = undefined;
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: { error?: { message: string; code: string | null; type: string } } & Record<
    string,
    unknown
  >;
}

/** One HTTP request with exactly the given headers (no Origin, no Content-Type unless given). */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "POST",
        path: options.path ?? "/v1/chat/completions",
        headers: options.headers ?? {},
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let json: Reply["json"] = {};
          try {
            json = JSON.parse(text) as Reply["json"];
          } catch {
            // not JSON (a 204)
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const question = (model = "coord") =>
  JSON.stringify({ model, messages: [{ role: "user", content: "What is 2+2?" }] });
const json = { "content-type": "application/json" };

describe("browser protections", () => {
  test("only application/json bodies: text/plain, a form or no Content-Type get 415", async () => {
    const sandbox = await makeSandbox();
    serve = await startServe(
      ["--host", "127.0.0.1", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
      sandbox,
    );
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
      const reply = await send(serve.port, { headers: { "content-type": type }, body: question() });
      expect(reply.status).toBe(415);
      expect(reply.json.error).toMatchObject({ code: "unsupported_media_type" });
      expect(reply.json.error!.message).toContain("Content-Type: application/json");
    }
    expect((await send(serve.port, { body: question() })).status).toBe(415);
    const ok = await send(serve.port, {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: question(),
    });
    expect(ok.status).toBe(200);
  });

  test("an Origin not allowed is a 403 without CORS headers; --cors-origin allows one", async () => {
    const sandbox = await makeSandbox();
    serve = await startServe(
      [
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--config",
        "@examples/scripted_team",
        "--no-logs",
        "--cors-origin",
        "http://app.example",
      ],
      sandbox,
    );
    const evil = await send(serve.port, {
      headers: { ...json, origin: "http://evil.example" },
      body: question(),
    });
    expect(evil.status).toBe(403);
    expect(evil.json.error).toMatchObject({
      code: "origin_not_allowed",
      type: "permission_error",
    });
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
    const evilHealth = await send(serve.port, {
      method: "GET",
      path: "/health",
      headers: { origin: "http://evil.example" },
    });
    expect(evilHealth.status).toBe(403);

    const preflight = await send(serve.port, {
      method: "OPTIONS",
      headers: {
        origin: "http://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("http://app.example");
    const allowed = await send(serve.port, {
      headers: { ...json, origin: "http://app.example" },
      body: question(),
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers["access-control-allow-origin"]).toBe("http://app.example");
    // No Origin at all (curl, SDKs): no CORS headers, answered as before.
    const plain = await send(serve.port, { headers: json, body: question() });
    expect(plain.status).toBe(200);
    expect(plain.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("without --cors-origin nobody gets CORS headers, and any Origin is a 403", async () => {
    const sandbox = await makeSandbox();
    serve = await startServe(
      ["--host", "127.0.0.1", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
      sandbox,
    );
    const preflight = await send(serve.port, {
      method: "OPTIONS",
      headers: { origin: "http://app.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("a non-loopback bind without COORD_SERVER_API_KEY warns; /health says whether auth is on", async () => {
    const sandbox = await makeSandbox();
    serve = await startServe(
      ["--host", "0.0.0.0", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
      sandbox,
    );
    await serve.waitFor(/Press Ctrl\+C to stop/);
    expect(serve.stderr()).toMatch(
      /coord serve: warning: listening on 0\.0\.0\.0 without COORD_SERVER_API_KEY: anyone who can reach port \d+ can run the team on this server's provider keys/,
    );
    const open = await send(serve.port, { method: "GET", path: "/health" });
    expect(open.json).toMatchObject({ auth_required: false, config: "scripted_team.yaml" });
    expect(open.text).not.toContain("/examples/");
    serve.child.kill("SIGTERM");
    await serve.exited;

    serve = await startServe(
      ["--host", "0.0.0.0", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
      { ...sandbox, env: { COORD_SERVER_API_KEY: "a-long-server-key-123" } },
    );
    await serve.waitFor(/Press Ctrl\+C to stop/);
    expect(serve.stderr()).not.toContain("warning");
    const locked = await send(serve.port, { method: "GET", path: "/health" });
    expect(locked.json).toMatchObject({ auth_required: true });
    expect(locked.text).not.toContain("a-long-server-key-123");
    serve.child.kill("SIGTERM");
    await serve.exited;

    serve = await startServe(
      ["--host", "127.0.0.1", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
      sandbox,
    );
    await serve.waitFor(/Press Ctrl\+C to stop/);
    expect(serve.stderr()).not.toContain("warning");
  });
});

describe("model routing is confined to the --teams folder", () => {
  const team =
    "agents:\n  - id: one\n    backend: { type: scripted, steps: [{ answer: 'From a file.' }] }\n";

  test("path: outside the directory, devices, links out, FIFOs and big files are refused; nothing is echoed", async () => {
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), team);
    await mkdir(join(sandbox.cwd, "teams"));
    await writeFile(join(sandbox.cwd, "teams", "nested.yaml"), team);
    await symlink("/etc/passwd", join(sandbox.cwd, "passwd.yaml"));
    execFileSync("mkfifo", [join(sandbox.cwd, "fifo.yaml")]);
    await writeFile(join(sandbox.cwd, "big.yaml"), `# ${"x".repeat(2 * 1024 * 1024)}\n${team}`);
    await writeFile(
      join(sandbox.cwd, "notes.yaml"),
      "the-private-note: TOP-SECRET-CONTENT\nanother: [1, 2\n",
    );
    serve = await startServe(
      ["--host", "127.0.0.1", "--port", "0", "--no-logs", "--teams", "."],
      sandbox,
    );

    const ask = (model: string) => send(serve!.port, { headers: json, body: question(model) });
    const refused = async (model: string, code: string) => {
      const reply = await ask(model);
      expect(reply.status, model).toBe(400);
      expect(reply.json.error, model).toMatchObject({ code });
      expect(reply.text).not.toMatch(/root:|TOP-SECRET|the-private-note/);
      return reply.json.error!.message;
    };
    expect(await refused("path:/etc/passwd", "model_not_allowed")).toContain(
      "a team config is a .yaml or .yml file",
    );
    expect(await refused("path:/etc/../etc/passwd.yaml", "model_not_found")).toContain(
      "no such file under the server's --teams folder",
    );
    await refused("path:../../../../etc/passwd", "model_not_allowed");
    await refused("path:/dev/zero", "model_not_allowed");

    expect(await refused("path:passwd.yaml", "model_not_allowed")).toContain(
      "outside the server's --teams folder",
    );
    expect(await refused("path:fifo.yaml", "model_not_allowed")).toContain("not a regular file");
    expect(await refused("path:big.yaml", "model_not_allowed")).toContain("larger than 1048576");
    expect(await refused("path:.", "model_not_allowed")).toContain(".yaml or .yml");
    await mkdir(join(sandbox.cwd, "folder.yaml"));
    expect(await refused("path:folder.yaml", "model_not_allowed")).toContain("not a regular file");
    expect(await refused("path:nope.yaml", "model_not_found")).toContain("no such file");
    expect(await refused("path:notes.yaml", "model_invalid_config")).toMatch(
      /not a valid coord config \(first problem at line \d+, column \d+\)/,
    );
    await refused("path:a\u0000b", "model_not_allowed");
    await refused("local/../../../etc/passwd", "model_not_allowed");
    await refused("local//dev/zero", "model_not_allowed");
    expect(await refused("claude_code/claude-sonnet-4-5", "model_not_allowed")).toContain(
      "--config",
    );
    await refused("@examples/../../../etc/passwd", "model_not_found");

    // The FIFO did not stall anything: files under the directory still load, nested too.
    for (const model of [
      "path:team.yaml",
      "path:teams/nested.yaml",
      `path:${sandbox.cwd}/team.yaml`,
    ]) {
      const reply = await ask(model);
      expect(reply.status, model).toBe(200);
      expect(reply.json).toMatchObject({ choices: [{ message: { content: "From a file." } }] });
    }
  });

  test("--no-model-routing needs --config: a server that could only route refuses to start", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["serve", "--no-model-routing", "--port", "0"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "coord: --no-model-routing needs a team to serve: add --config FILE (or set COORD_SERVER_DEFAULT_CONFIG)\n",
    );
  });
});

describe("bad flags and values", () => {
  test("a port out of range or a timeout past Node's timer limit: one line, exit 1", async () => {
    const sandbox = await makeSandbox();
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ["--port", "99999999"],
        {},
        /^coord: error: option '--port <port>' argument '99999999' is invalid\. --port must be a port number from 0 to 65535, not "99999999"\n$/,
      ],
      [["--port", "80.5"], {}, /--port must be a port number from 0 to 65535, not "80.5"/],
      [
        [],
        { COORD_SERVER_PORT: "99999999" },
        /^coord: COORD_SERVER_PORT="99999999": expected a port number from 0 to 65535\n$/,
      ],
      [
        ["--request-timeout", "3000000"],
        {},
        /--request-timeout must be a whole number of seconds from 1 to 2147483 \(Node's timer limit, about 24\.8 days\), not "3000000"/,
      ],
      [
        ["--shutdown-timeout", "3000000"],
        {},
        /--shutdown-timeout must be a whole number of seconds from 0 to 2147483/,
      ],
    ];
    for (const [args, env, message] of cases) {
      const result = await runCli(["serve", ...args, "--config", "@examples/scripted_team"], {
        ...sandbox,
        env,
      });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain("internal error");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  test("base_url: file:///etc/passwd fails at once with the key named, not after 12 s of retries", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      'agents:\n  - id: a\n    backend: { type: chatcompletion, model: m, base_url: "file:///etc/passwd" }\n',
    );
    const run = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], sandbox);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^coord: \S*team\.yaml:3:58: agents\[0\]\.backend\.base_url: expected an http:\/\/ or https:\/\/ URL, received "file:\/\/\/etc\/passwd"\n$/,
    );
    const served = await runCli(["serve", "--port", "0", "--config", "team.yaml"], sandbox);
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(
      "agents[0].backend.base_url: expected an http:// or https:// URL",
    );
  });
});
