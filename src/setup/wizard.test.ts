import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sendJson, startFakeHttpServer } from "../../test/support/fake-http.js";
import { envFilePath, examplesDir, globalConfigPath, parseConfigText } from "../config/index.js";
import { BACK, SetupCancelled } from "./prompter.js";
import { createScriptedPrompter, CTRL_C, type ScriptedAnswer } from "./scripted-prompter.js";
import { runSetupWizard } from "./wizard.js";

let root: string;
let cwd: string;
let home: string;
const closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-wizard-"));
  cwd = join(root, "project");
  home = join(root, "home");
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await rm(root, { recursive: true, force: true });
});

/** A fake OpenAI `/v1/models` answering the given statuses in turn (200 once they run out). */
async function modelsServer(statuses: number[] = []) {
  const server = await startFakeHttpServer(async (_request, res) =>
    sendJson(res, statuses.shift() ?? 200, { data: [] }),
  );
  closers.push(() => server.close());
  return server;
}

const ask = (
  kind: ScriptedAnswer["ask"],
  message: string,
  answer: unknown,
  extra: Partial<ScriptedAnswer> = {},
): ScriptedAnswer => ({ ask: kind, message, answer, ...extra });
const choose = (message: string, label: string): ScriptedAnswer => ({
  ask: "select",
  message,
  choose: label,
});

function wizard(
  answers: ScriptedAnswer[],
  env: Record<string, string> = {},
  extra: { explicit?: boolean } = {},
) {
  const prompter = createScriptedPrompter(answers);
  const run = runSetupWizard({
    prompter,
    cwd,
    home,
    env,
    explicit: extra.explicit ?? false,
    then: "chat",
  });
  return { prompter, run };
}

describe("the setup wizard", () => {
  it("asks for a key when none is found, checks it, saves .env 0600, then saves a template as the default", async () => {
    const server = await modelsServer();
    const { prompter, run } = wizard(
      [
        ask("multiselect", "Which providers", ["openai"]),
        ask("password", "OpenAI API key (OPENAI_API_KEY)", "", { refusedWith: "Type or paste" }),
        ask("password", "OpenAI API key", " sk-test "),
        ask("confirm", "Check the keys now?", true),
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "simple"),
        choose("Save it where?", "As your default"),
      ],
      { OPENAI_BASE_URL: `${server.origin}/v1` },
    );
    const choice = await run;
    prompter.assertDone();
    const path = globalConfigPath(home);
    expect(choice).toEqual({ configArg: path, savedTo: path });
    expect(prompter.shown).toContain(
      "No API key found in the environment or in ~/.config/coord/.env.",
    );
    expect(prompter.shown).toContain("OpenAI: the key works.");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-test");

    expect(await readFile(envFilePath(home), "utf8")).toBe("OPENAI_API_KEY=sk-test\n");
    expect((await stat(envFilePath(home))).mode & 0o777).toBe(0o600);

    const yaml = await readFile(path, "utf8");
    expect(prompter.shown).toContain(`Your config\n${yaml.trimEnd()}`);
    const { config } = parseConfigText(yaml, { env: {} });
    expect(config.agents.map((agent) => agent.backend.model)).toEqual([
      "gpt-4o-mini",
      "gpt-4.1-mini",
      "gpt-4.1-nano",
    ]);
    expect(prompter.shown.at(-1)).toBe(
      "Done: from now on, plain `coord` uses it. Starting the chat…",
    );
  });

  it("goes back a question with Esc, from one key to the one before and from step 2 to step 1", async () => {
    const { prompter, run } = wizard([
      ask("multiselect", "Which providers", ["openai", "claude"]),
      ask("password", "OpenAI API key", "sk-1"),
      ask("password", "Anthropic (Claude) API key", BACK),
      ask("password", "OpenAI API key", "sk-2"),
      ask("password", "Anthropic (Claude) API key", "sk-ant"),
      ask("confirm", "Check the keys now?", false),
      ask("select", "How do you want to set up your team?", BACK),
      ask("multiselect", "Which providers", ["claude"]),
      ask("password", "Anthropic (Claude) API key", "sk-ant-2"),
      ask("confirm", "Check the keys now?", false),
      ask("select", "How do you want to set up your team?", "template"),
      ask("select", "Which template?", "decomposition"),
      choose("Save it where?", "For this project"),
    ]);
    const choice = await run;
    prompter.assertDone();
    expect(choice.savedTo).toBe(join(cwd, ".coord", "config.yaml"));
    // Back in step 1, the providers chosen the first time are ticked.
    const lists = prompter.asked.filter((question) => question.ask === "multiselect");
    expect(lists.map((question) => question.initial)).toEqual([[], ["openai", "claude"]]);
    expect(await readFile(envFilePath(home), "utf8")).toBe(
      "OPENAI_API_KEY=sk-2\nANTHROPIC_API_KEY=sk-ant-2\n",
    );
    const { config } = parseConfigText(await readFile(choice.savedTo!, "utf8"), { env: {} });
    // Both keys are found by then: the team goes round both providers.
    expect(config.agents.map((agent) => agent.backend.type)).toEqual([
      "openai",
      "claude",
      "openai",
    ]);
    expect(config.orchestrator.coordination_mode).toBe("decomposition");
    expect(prompter.shown.at(-1)).toBe(
      "Done: from now on, plain `coord` in this directory uses it. Starting the chat…",
    );
  });

  it("Ctrl+C during the keys writes nothing", async () => {
    const { run } = wizard([
      ask("multiselect", "Which providers", ["openai"]),
      ask("password", "OpenAI API key", CTRL_C),
    ]);
    await expect(run).rejects.toThrow(new SetupCancelled("setup cancelled; nothing was written"));
    expect(existsSync(join(home, ".config"))).toBe(false);
  });

  it("Ctrl+C in step 2 keeps the saved keys and writes no config", async () => {
    const { run } = wizard([
      ask("multiselect", "Which providers", ["zai"]),
      ask("password", "Z.ai (GLM) API key", "z"),
      ask("confirm", "Check the keys now?", false),
      ask("select", "How do you want to set up your team?", "template"),
      ask("select", "Which template?", "simple"),
      ask("select", "Save it where?", CTRL_C),
    ]);
    await expect(run).rejects.toThrow(
      "setup cancelled; ~/.config/coord/.env was saved, no config was written",
    );
    expect(await readFile(envFilePath(home), "utf8")).toBe("ZAI_API_KEY=z\n");
    expect(existsSync(globalConfigPath(home))).toBe(false);
    expect(existsSync(join(cwd, ".coord"))).toBe(false);
  });

  it("a refused key can be typed again; a provider can be left out", async () => {
    const server = await modelsServer([401, 200]);
    const grok = await modelsServer([403]);
    const { prompter, run } = wizard(
      [
        ask("multiselect", "Which providers", ["openai", "grok"]),
        ask("password", "OpenAI API key", "bad"),
        ask("password", "xAI (Grok) API key", "x"),
        ask("confirm", "Check the keys now?", true),
        ask("select", "What now with the OpenAI key?", "retype"),
        ask("password", "OpenAI API key", "good"),
        ask("select", "What now with the xAI (Grok) key?", "drop"),
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "simple"),
        choose("Save it where?", "As your default"),
      ],
      { OPENAI_BASE_URL: `${server.origin}/v1`, XAI_BASE_URL: `${grok.origin}/v1` },
    );
    await run;
    prompter.assertDone();
    expect(prompter.shown).toContain(
      `OpenAI refused the key (HTTP 401 from ${new URL(server.origin).host}).`,
    );
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer bad",
      "Bearer good",
    ]);
    expect(await readFile(envFilePath(home), "utf8")).toBe("OPENAI_API_KEY=good\n");
  });

  it("skips the keys when one is found; browsing an example and saving it as default copies it", async () => {
    const { prompter, run } = wizard(
      [
        ask("select", "How do you want to set up your team?", "browse"),
        choose("Which configs?", "Examples: getting started"),
        ask("select", "Examples: getting started: which config?", BACK),
        choose("Which configs?", "Examples: getting started"),
        choose("Examples: getting started: which config?", "single_agent — 1 agent: openai"),
        ask("confirm", "Save as default?", true),
      ],
      { OPENAI_API_KEY: "sk-env" },
    );
    const choice = await run;
    prompter.assertDone();
    expect(prompter.asked.some((question) => question.message.includes("API key"))).toBe(false);
    expect(prompter.shown).toContain("API keys found: OPENAI_API_KEY.");
    expect(choice).toEqual({ configArg: globalConfigPath(home), savedTo: globalConfigPath(home) });
    expect(await readFile(globalConfigPath(home), "utf8")).toBe(
      await readFile(join(examplesDir(), "single_agent.yaml"), "utf8"),
    );
    expect(existsSync(envFilePath(home))).toBe(false);
  });

  it("browsing without saving runs the example from where it is and writes nothing", async () => {
    await mkdir(join(home, ".config", "coord"), { recursive: true });
    await writeFile(envFilePath(home), "ANTHROPIC_API_KEY=from-file\n");
    const { prompter, run } = wizard([
      ask("select", "How do you want to set up your team?", "browse"),
      choose("Which configs?", "Examples: getting started"),
      choose("which config?", "three_agents"),
      ask("confirm", "Save as default?", false),
    ]);
    expect(await run).toEqual({ configArg: "@examples/three_agents", savedTo: undefined });
    prompter.assertDone();
    expect(prompter.shown).toContain("API keys found: ANTHROPIC_API_KEY.");
    expect(existsSync(globalConfigPath(home))).toBe(false);
  });

  it("coord --setup offers to change keys, and asks before replacing a config", async () => {
    await mkdir(join(home, ".config", "coord"), { recursive: true });
    await writeFile(globalConfigPath(home), "# mine\n");
    const { prompter, run } = wizard(
      [
        ask("confirm", "Add or change API keys?", false),
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "code"),
        ask("select", "What may the team do in the directory", "write"),
        choose("Save it where?", "As your default"),
        ask("confirm", "config.yaml exists. Replace it?", false),
        choose("Save it where?", "For this project"),
      ],
      { GEMINI_API_KEY: "g" },
      { explicit: true },
    );
    const choice = await run;
    prompter.assertDone();
    expect(await readFile(globalConfigPath(home), "utf8")).toBe("# mine\n");
    const { config } = parseConfigText(await readFile(choice.savedTo!, "utf8"), { env: {} });
    expect(config.agents.map((agent) => agent.backend.model)).toEqual([
      "gemini-2.5-pro",
      "gemini-2.5-flash",
    ]);
    expect(config.orchestrator.context_paths).toEqual([
      { path: ".", permission: "write", protected_paths: [] },
    ]);
  });

  it("saving the default where the project has its own config says plain coord here keeps that one", async () => {
    await mkdir(join(cwd, ".coord"), { recursive: true });
    await writeFile(join(cwd, ".coord", "config.yaml"), "# the project's\n");
    const { prompter, run } = wizard(
      [
        ask("confirm", "Add or change API keys?", false),
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "simple"),
        choose("Save it where?", "As your default"),
      ],
      { OPENAI_API_KEY: "k" },
      { explicit: true },
    );
    const choice = await run;
    prompter.assertDone();
    expect(choice.savedTo).toBe(globalConfigPath(home));
    expect(prompter.shown.at(-1)).toBe(
      "Done: plain `coord` uses it where there is no .coord/config.yaml (this directory has one). Starting the chat…",
    );
  });

  it("builds a custom team: provider and model per agent, a base URL, a local model file", async () => {
    const model = join(root, "tiny.gguf");
    await writeFile(model, "GGUF");
    const { prompter, run } = wizard(
      [
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "custom"),
        ask("select", "How many agents?", 3),
        ask("select", "Agent 1 of 3: which provider?", "openai"),
        ask("select", "OpenAI model", ""),
        ask("text", "OpenAI model name", "gpt-5"),
        ask("select", "Agent 2 of 3: which provider?", "compatible"),
        ask("text", "Base URL of the server", "localhost", { refusedWith: "Type a URL" }),
        ask("text", "Base URL of the server", "http://127.0.0.1:9/v1"),
        ask("text", "Model name, as the server spells it", "qwen"),
        ask("select", "Agent 3 of 3: which provider?", "local"),
        ask("text", "Path of the GGUF model file", "missing.gguf"),
        ask("text", "Path of the GGUF model file", model),
        choose("Save it where?", "As your default"),
      ],
      { OPENAI_API_KEY: "k" },
    );
    const choice = await run;
    prompter.assertDone();
    expect(prompter.shown).toContain(`${join(cwd, "missing.gguf")}: no such file.`);
    const agentQuestion = prompter.asked.find((question) => question.message.startsWith("Agent 1"));
    expect(agentQuestion!.choices.find((option) => option.value === "openai")!.hint).toBe(
      "key found",
    );
    const text = await readFile(choice.savedTo!, "utf8");
    expect(text).toContain("# Needs OPENAI_API_KEY in the environment");
    const { config } = parseConfigText(text, { env: {} });
    expect(
      config.agents.map((agent) => [
        agent.backend.type,
        agent.backend.model,
        agent.backend.base_url,
      ]),
    ).toEqual([
      ["openai", "gpt-5", undefined],
      ["chatcompletion", "qwen", "http://127.0.0.1:9/v1"],
      ["local", model, undefined],
    ]);
    expect(config.agents.map((agent) => agent.id)).toEqual(["openai_1", "compatible_1", "local_1"]);
  });

  it("a custom team's next agent offers the previous URL and model as defaults, not as text to edit", async () => {
    const { prompter, run } = wizard(
      [
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "custom"),
        ask("select", "How many agents?", 3),
        ask("select", "Agent 1 of 3: which provider?", "compatible"),
        ask("text", "Base URL of the server", "http://127.0.0.1:9/v1"),
        ask("text", "Model name, as the server spells it", "x"),
        ask("select", "Agent 2 of 3: which provider?", "compatible"),
        // Enter on the empty field: the default.
        ask("text", "Base URL of the server", ""),
        ask("text", "Model name, as the server spells it", ""),
        ask("select", "Agent 3 of 3: which provider?", "compatible"),
        // A URL pasted twice (what appending to pre-filled text gave) is refused under the field.
        ask("text", "Base URL of the server", "http://127.0.0.1:9/v1http://127.0.0.1:9/v1", {
          refusedWith: "One URL only",
        }),
        ask("text", "Base URL of the server", "ftp://127.0.0.1/v1", { refusedWith: "http(s)" }),
        ask("text", "Base URL of the server", "http://127.0.0.1:10/v1"),
        ask("text", "Model name, as the server spells it", "y"),
        choose("Save it where?", "As your default"),
      ],
      { OPENAI_API_KEY: "k" },
    );
    const choice = await run;
    prompter.assertDone();
    const urlQuestions = prompter.asked.filter((question) =>
      question.message.startsWith("Base URL"),
    );
    expect(urlQuestions[0]).not.toHaveProperty("default");
    for (const question of urlQuestions.slice(1)) {
      expect(question.initial).toBeUndefined();
      expect(question.default).toBe("http://127.0.0.1:9/v1");
    }
    const { config } = parseConfigText(await readFile(choice.savedTo!, "utf8"), { env: {} });
    expect(
      config.agents.map((agent) => [agent.id, agent.backend.base_url, agent.backend.model]),
    ).toEqual([
      ["compatible_1", "http://127.0.0.1:9/v1", "x"],
      ["compatible_2", "http://127.0.0.1:9/v1", "x"],
      ["compatible_3", "http://127.0.0.1:10/v1", "y"],
    ]);
  });

  it("a custom team's second local agent takes the first one's file on Enter", async () => {
    const model = join(root, "tiny.gguf");
    await writeFile(model, "GGUF");
    const { prompter, run } = wizard(
      [
        ask("select", "How do you want to set up your team?", "template"),
        ask("select", "Which template?", "custom"),
        ask("select", "How many agents?", 2),
        ask("select", "Agent 1 of 2: which provider?", "local"),
        ask("text", "Path of the GGUF model file", model),
        ask("select", "Agent 2 of 2: which provider?", "local"),
        ask("text", "Path of the GGUF model file", ""),
        choose("Save it where?", "As your default"),
      ],
      { OPENAI_API_KEY: "k" },
    );
    const choice = await run;
    prompter.assertDone();
    const second = prompter.asked.filter((question) => question.message.startsWith("Path"))[1]!;
    expect([second.initial, second.default]).toEqual([undefined, model]);
    const { config } = parseConfigText(await readFile(choice.savedTo!, "utf8"), { env: {} });
    expect(config.agents.map((agent) => [agent.id, agent.backend.model])).toEqual([
      ["local_1", model],
      ["local_2", model],
    ]);
  });

  it("the local template needs no key and asks for the file and the number of agents", async () => {
    const model = join(home, "m.gguf");
    await writeFile(model, "GGUF");
    const { prompter, run } = wizard([
      ask("multiselect", "Which providers", []),
      ask("confirm", "Go on without API keys?", true),
      ask("select", "How do you want to set up your team?", "template"),
      ask("select", "Which template?", "local"),
      ask("text", "Path of the GGUF model file", "~/m.gguf"),
      ask("select", "How many agents?", 1),
      choose("Save it where?", "As your default"),
    ]);
    const choice = await run;
    prompter.assertDone();
    expect(existsSync(envFilePath(home))).toBe(false);
    const { config } = parseConfigText(await readFile(choice.savedTo!, "utf8"), { env: {} });
    expect(config.agents).toHaveLength(1);
    expect(config.agents[0]!.backend).toMatchObject({ type: "local", model, threads: 1 });
  });
});
