/**
 * `execute_command` in bubblewrap (docs/tools.md "Commands"), attacked as an
 * agent would: each test runs real commands in the real sandbox and checks the host afterwards.
 * A command cannot write outside its workspace, nor into a read-only context path; it sees no
 * provider key, no `GH_PAT`, no `DATABASE_URL` and cannot read `~/.config/coord/.env`; it has no
 * network unless the config allows it; a fork bomb the string guard cannot see is killed by the
 * process limit. Without bubblewrap (a missing binary, through `COORD_BWRAP_PATH`) commands are
 * refused, unless the config opts out with `command_sandbox: none`.
 */
import { execFileSync } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseConfigText } from "../src/config/index.js";
import {
  commandTool,
  MAX_COMMAND_TIMEOUT_SECONDS,
  type CommandToolOptions,
} from "../src/tools/command-tool.js";
import { createTeamTools } from "../src/tools/team-tools.js";
import type { RootSpec } from "../src/tools/path-policy.js";

/** bwrap is installed on CI (.ci/run); elsewhere these tests say why they are skipped. */
const HAS_BWRAP = existsSync("/usr/bin/bwrap") && process.platform === "linux";
/**
 * A node the sandbox can see for the probes below: the one on PATH (a system directory), not this
 * process's when that sits under a folder the sandbox hides (CI runs the unit tests again on a
 * Node 24 kept in the clone's .cache, and the clone lives under /tmp).
 */
const SANDBOX_NODE =
  execFileSync("sh", ["-c", "command -v node || true"], { encoding: "utf8" }).trim() ||
  process.execPath;

/** A folder outside /tmp (which the sandbox replaces by its own), so it is really there inside. */
async function outsideTmp(prefix: string): Promise<string> {
  await mkdir("/var/tmp", { recursive: true });
  return mkdtemp(join("/var/tmp", prefix));
}

async function run(
  command: string,
  options: Partial<CommandToolOptions> & { presenting?: boolean; timeout?: number } = {},
): Promise<{ ok: boolean; text: string; cwd: string }> {
  const cwd = options.cwd ?? (await mkdtemp(join(tmpdir(), "coord-sandbox-ws-")));
  const tool = commandTool({ env: { PATH: process.env.PATH }, ...options, cwd });
  try {
    const text = await tool.execute(
      { command, timeout_seconds: options.timeout ?? 30 },
      {
        agentId: "a",
        presenting: options.presenting ?? false,
        signal: new AbortController().signal,
      },
    );
    return { ok: true, text, cwd };
  } catch (error) {
    return { ok: false, text: (error as Error).message, cwd };
  }
}

describe.skipIf(!HAS_BWRAP)(
  "execute_command in bubblewrap (skipped where bwrap is not installed)",
  () => {
    test("writes land only in the workspace: not in /var/tmp, not in the host's /tmp", async () => {
      const outside = await outsideTmp("coord-outside-");
      const hostTmp = await mkdtemp(join(tmpdir(), "coord-host-tmp-"));
      const result = await run(
        `echo mine > mine.txt; echo a > ${outside}/a.txt; echo b > ${hostTmp}/b.txt; echo c > /tmp/c.txt; ls /tmp`,
      );
      expect(await readFile(join(result.cwd, "mine.txt"), "utf8")).toBe("mine\n");
      expect(result.text).toContain("Read-only file system");
      expect(existsSync(join(outside, "a.txt"))).toBe(false);
      expect(existsSync(join(hostTmp, "b.txt"))).toBe(false);
      expect(existsSync("/tmp/c.txt")).toBe(false);
    });

    test("a read context path is read-only; a write one only while presenting; protected stays read-only", async () => {
      const readOnly = await outsideTmp("coord-ctx-ro-");
      const writable = await outsideTmp("coord-ctx-rw-");
      await writeFile(join(readOnly, "data.txt"), "input\n");
      await writeFile(join(writable, "keep.txt"), "original\n");
      const roots: RootSpec[] = [
        { path: readOnly, access: "read", label: "context path" },
        { path: writable, access: "present-write", label: "context path" },
        { path: join(writable, "keep.txt"), access: "protected", label: "protected" },
      ];
      const attack = `cat ${readOnly}/data.txt; echo x > ${readOnly}/new.txt; echo y > ${readOnly}/data.txt; echo z > ${writable}/out.txt`;
      const voter = await run(attack, { roots });
      expect(voter.text).toContain("input");
      expect(await readFile(join(readOnly, "data.txt"), "utf8")).toBe("input\n");
      expect(existsSync(join(readOnly, "new.txt"))).toBe(false);
      expect(existsSync(join(writable, "out.txt"))).toBe(false);

      const presenter = await run(
        `echo z > ${writable}/out.txt; echo gone > ${writable}/keep.txt; echo x > ${readOnly}/new.txt`,
        { roots, presenting: true },
      );
      expect(presenter.ok).toBe(false);
      expect(await readFile(join(writable, "out.txt"), "utf8")).toBe("z\n");
      expect(await readFile(join(writable, "keep.txt"), "utf8")).toBe("original\n");
      expect(existsSync(join(readOnly, "new.txt"))).toBe(false);
    });

    test("no secret reaches a command: not in env, not in ~/.config/coord/.env, not in ~/.ssh", async () => {
      const home = await outsideTmp("coord-home-");
      await mkdir(join(home, ".config", "coord"), { recursive: true });
      await writeFile(
        join(home, ".config", "coord", ".env"),
        "ANTHROPIC_API_KEY=sk-ant-from-env-file\n",
      );
      await mkdir(join(home, ".ssh"));
      await writeFile(join(home, ".ssh", "id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
      await writeFile(join(home, "notes.txt"), "plain notes\n");
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        LANG: "C.UTF-8",
        OPENAI_API_KEY: "sk-openai-parent-env",
        GH_PAT: "ghp_parentpat123",
        DATABASE_URL: "postgres://app:hunter2-db-password@db/app",
        // coord merges the .env file into its environment: that copy must not pass either.
        ANTHROPIC_API_KEY: "sk-ant-from-env-file",
      };
      const result = await run(
        `env; cat ${home}/.config/coord/.env; cat ${home}/.ssh/id_ed25519; cat ${home}/notes.txt; cat ~/.config/coord/.env`,
        { env },
      );
      expect(result.text).toContain("LANG=C.UTF-8");
      expect(result.text).toContain("HOME=/tmp/home");
      expect(result.text).toContain("plain notes");
      expect(result.text).toContain(`${home}/.config/coord/.env: No such file or directory`);
      for (const secret of [
        "sk-openai-parent-env",
        "ghp_parentpat123",
        "hunter2-db-password",
        "sk-ant-from-env-file",
        "PRIVATE-KEY-MATERIAL",
      ]) {
        expect(result.text).not.toContain(secret);
      }
    });

    test("as for the file tools: the other agents' workspaces and coord's run logs are hidden, a read context path is read-only", async () => {
      const cwd = await outsideTmp("coord-team-");
      await mkdir(join(cwd, "docs"));
      await writeFile(join(cwd, "docs", "guide.md"), "the guide\n");
      await mkdir(join(cwd, "agent_outputs"));
      await writeFile(join(cwd, "agent_outputs", "events.jsonl"), "who wrote what\n");
      const { config } = parseConfigText(
        `
orchestrator:
  context_paths: [{ path: docs, permission: read }]
agents:
  - { id: maker, backend: { type: scripted, cwd: ws_maker, enable_mcp_command_line: true } }
  - { id: other, backend: { type: scripted, cwd: ws_other } }
`,
        { env: {} },
      );
      const team = await createTeamTools({
        config,
        agentIndexes: [0, 1],
        cwd,
        env: { PATH: process.env.PATH },
        runName: "run_s",
        hidden: [join(cwd, "agent_outputs")],
      });
      const run = join(cwd, ".coord", "workspaces", "run_s");
      await writeFile(join(run, "ws_other", "draft.md"), "other's draft\n");
      const command = team.agents[0]!.tools.find((tool) => tool.spec.name === "execute_command")!;
      let output: string;
      try {
        output = await command.execute(
          {
            command:
              `cat docs/guide.md; cat ${run}/ws_other/draft.md; cat agent_outputs/events.jsonl; echo x > docs/new.md; echo mine > ${run}/ws_maker/mine.txt`.replace(
                /(docs|agent_outputs)\//g,
                `${cwd}/$1/`,
              ),
          },
          { agentId: "maker", presenting: false, signal: new AbortController().signal },
        );
      } catch (error) {
        output = (error as Error).message;
      }
      await team.close();
      expect(output).toContain("the guide");
      expect(output).not.toContain("other's draft");
      expect(output).not.toContain("who wrote what");
      expect(output).toContain("Read-only file system");
      expect(existsSync(join(cwd, "docs", "new.md"))).toBe(false);
      expect(await readFile(join(run, "ws_maker", "mine.txt"), "utf8")).toBe("mine\n");
    });

    test("the host's Unix sockets in /run are out of reach (a read-only mount does not stop connect)", async () => {
      const socket = `/run/coord-sandbox-test-${process.pid}.sock`;
      const server = createNetServer((connection) => connection.end("hello from /run\n"));
      const listening = await new Promise<boolean>((resolve) => {
        server.once("error", () => resolve(false));
        server.listen(socket, () => resolve(true));
      });
      if (!listening) return; // /run is not writable here: nothing to attack
      try {
        const connect = `'${SANDBOX_NODE}' -e "require('net').connect('${socket}').on('data', d => console.log('GOT', String(d))).on('error', e => { console.log('NO SOCKET', e.code); process.exit(3); })"`;
        const result = await run(connect);
        expect(result.text).toContain("NO SOCKET");
        expect(result.text).not.toContain("hello from /run");
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    describe("the network", () => {
      let server: Server;
      let url: string;
      let hits = 0;
      beforeAll(async () => {
        server = createServer((_request, response) => {
          hits++;
          response.end("hello from the host");
        });
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      });
      afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

      const fetchCommand = () =>
        `'${SANDBOX_NODE}' -e "fetch('${url}').then(r => r.text()).then(t => console.log('GOT', t), e => { console.log('NO NETWORK', e.cause?.code ?? e.message); process.exit(3); })"`;

      test("is off by default: a server on the host's 127.0.0.1 is out of reach", async () => {
        const before = hits;
        const result = await run(fetchCommand());
        expect(result.ok).toBe(false);
        expect(result.text).toContain("NO NETWORK");
        expect(hits).toBe(before);
      });

      test("is on with command_network: true", async () => {
        const before = hits;
        const result = await run(fetchCommand(), { network: true });
        expect(result.text).toContain("GOT hello from the host");
        expect(hits).toBe(before + 1);
      });
    });

    test(
      "a renamed fork bomb the string guard cannot see is killed by the process limit",
      { timeout: 90_000 },
      async () => {
        const bomb = Buffer.from("bomb(){ bomb|bomb& }; bomb; sleep 30").toString("base64");
        let ticks = 0;
        const heartbeat = setInterval(() => ticks++, 10);
        // The command's own timeout is far past this test's: only the process limit ends it in time.
        const result = await run(`echo ${bomb} | base64 -d > b.sh; sh b.sh`, {
          timeout: MAX_COMMAND_TIMEOUT_SECONDS,
        });
        clearInterval(heartbeat);
        expect(result.ok).toBe(false);
        expect(result.text).toMatch(/^Killed: the command had more than 256 processes at once\./);
        // Killed by the limit (the timeout says "Timed out"), and this process kept running meanwhile.
        expect(ticks).toBeGreaterThan(0);
        const after = await run("echo still fine");
        expect(after.text).toContain("still fine");
      },
    );

    test("the timeout kills the whole sandbox, background processes included", async () => {
      // The workspace is the one writable place: a straggler would write there after the kill.
      // It holds a FIFO open while it sleeps, so its end is a condition the test waits on (the
      // reader's end of file, once no writer is left), not a guess at how long it takes to die.
      const workspace = await mkdtemp(join(tmpdir(), "coord-sandbox-ws-"));
      execFileSync("mkfifo", [join(workspace, "alive.fifo")]);
      const writersGone = new Promise<void>((resolve, reject) => {
        const reader = createReadStream(join(workspace, "alive.fifo"));
        reader
          .on("data", () => undefined)
          .on("end", resolve)
          .on("error", reject);
      });
      const result = await run(
        `(exec 3> alive.fifo; sleep 2; echo late > late.txt) & echo started; sleep 30`,
        { cwd: workspace, timeout: 1 },
      );
      expect(result.text).toBe(
        "Timed out after 1 s: the command was killed.\nstdout:\nstarted\n\nstderr:\n",
      );
      await writersGone;
      // Dead before its write, so it can never make it.
      expect(existsSync(join(workspace, "late.txt"))).toBe(false);
    });
  },
);

describe("without a sandbox", () => {
  test("commands are refused when bwrap is missing; command_sandbox: none runs them", async () => {
    const env = { PATH: process.env.PATH, COORD_BWRAP_PATH: "/nonexistent/bwrap" };
    const refused = await run("echo ran > ran.txt", { env });
    expect(refused.ok).toBe(false);
    expect(refused.text).toBe(
      'Command refused: no sandbox: /nonexistent/bwrap does not exist. Install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap), or set command_sandbox: none on this agent to run commands without isolation (docs/tools.md "Commands").',
    );
    expect(existsSync(join(refused.cwd, "ran.txt"))).toBe(false);

    // A bwrap that is there but fails its probe (user namespaces off, say) is no sandbox either.
    const broken = await run("echo ran > ran.txt", {
      env: { PATH: process.env.PATH, COORD_BWRAP_PATH: "/bin/false" },
    });
    expect(broken.text).toMatch(/^Command refused: no sandbox: \/bin\/false failed its probe: /);
    expect(existsSync(join(broken.cwd, "ran.txt"))).toBe(false);

    const optedOut = await run("echo ran > ran.txt; echo $HOME", {
      env: { ...env, HOME: "/home/operator", OPENAI_API_KEY: "sk-still-hidden" },
      sandbox: "none",
    });
    expect(optedOut.ok).toBe(true);
    expect(await readFile(join(optedOut.cwd, "ran.txt"), "utf8")).toBe("ran\n");
    expect(optedOut.text).toContain("/home/operator");
    expect(optedOut.text).not.toContain("sk-still-hidden");
  });
});
