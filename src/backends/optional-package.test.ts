import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import {
  importOptionalPackage,
  isMissingPackage,
  OPTIONAL_PACKAGES,
  requireOptionalPackage,
} from "./optional-package.js";

/** The error Node's `import()` throws for a package that is not installed (its real wording). */
function notFound(name: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${name}' imported from /usr/lib/node_modules/coord/x.js`),
    { code: "ERR_MODULE_NOT_FOUND" },
  );
}

describe("optional packages", () => {
  it("a missing Claude Agent SDK is a one-line config error naming the package to install", async () => {
    const name = OPTIONAL_PACKAGES.claude_code;
    const failed = importOptionalPackage("claude_code", () => Promise.reject(notFound(name)));
    await expect(failed).rejects.toBeInstanceOf(ConfigError);
    const error = (await failed.catch((e: unknown) => e)) as ConfigError;
    expect(error.message).not.toContain("\n");
    expect(error.message).toContain("claude_code backend");
    expect(error.message).toContain(`npm install ${name}`);
    expect(error.message).toContain(`npm install -g ${name}`);
    expect(error.exitCode).toBe(1);
  });

  it("a missing node-llama-cpp is found before anything loads, with the same message", () => {
    const resolve = (name: string): string => {
      throw Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- x.js`), {
        code: "MODULE_NOT_FOUND",
      });
    };
    expect(() => requireOptionalPackage("local", resolve)).toThrow(
      /local backend needs the optional package node-llama-cpp.*npm install node-llama-cpp/,
    );
  });

  it("an installed package passes, even one that exports no CommonJS entry", () => {
    expect(() => requireOptionalPackage("local", () => "/x/index.js")).not.toThrow();
    const esmOnly = Object.assign(new Error('No "exports" main defined'), {
      code: "ERR_PACKAGE_PATH_NOT_EXPORTED",
    });
    expect(() =>
      requireOptionalPackage("claude_code", () => {
        throw esmOnly;
      }),
    ).not.toThrow();
    // Both packages are in this repository's dev install: the real resolver finds them.
    expect(() => requireOptionalPackage("claude_code")).not.toThrow();
    expect(() => requireOptionalPackage("local")).not.toThrow();
  });

  it("a missing file inside the package (a broken install) is not reported as a missing package", async () => {
    const inner = notFound("@node-llama-cpp/linux-x64");
    expect(isMissingPackage(inner, OPTIONAL_PACKAGES.local)).toBe(false);
    await expect(importOptionalPackage("local", () => Promise.reject(inner))).rejects.toBe(inner);
  });

  it("the loaded module is returned as it is", async () => {
    const module = { query: "q" };
    await expect(importOptionalPackage("claude_code", () => Promise.resolve(module))).resolves.toBe(
      module,
    );
  });
});
