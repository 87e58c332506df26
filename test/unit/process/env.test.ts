import { describe, expect, test } from "bun:test";
import { buildChildEnv, CHILD_ENV_ALLOW_LIST, isDeniedEnvName } from "../../../src/process/env.ts";

const host = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  LANG: "C.UTF-8",
  GITHUB_TOKEN: "ghp_secret",
  NPM_TOKEN: "npm_secret",
  AWS_SECRET_ACCESS_KEY: "aws",
  AWS_REGION: "eu-west-1",
  OPENAI_API_KEY: "sk-1",
  NODE_OPTIONS: "--require /tmp/evil.js",
  BUN_OPTIONS: "--preload /tmp/evil.ts",
  LD_PRELOAD: "/tmp/evil.so",
  LD_LIBRARY_PATH: "/tmp",
  DYLD_INSERT_LIBRARIES: "/tmp/evil.dylib",
  DOCKER_HOST: "unix:///run/docker.sock",
  EDITOR: "vim",
};

describe("child environment", () => {
  test("only the allow-list passes from the host by default", () => {
    const { env } = buildChildEnv(host);
    expect(Object.keys(env).sort()).toEqual(["HOME", "LANG", "PATH"]);
    for (const name of Object.keys(env)) expect(CHILD_ENV_ALLOW_LIST as readonly string[]).toContain(name);
  });

  test("tokens, keys, cloud credentials and loader switches are denied by name", () => {
    for (const name of [
      "GITHUB_TOKEN",
      "NPM_TOKEN",
      "AWS_REGION",
      "AWS_SECRET_ACCESS_KEY",
      "OPENAI_API_KEY",
      "SSH_KEY",
      "DB_PASSWORD",
      "MY_SECRET",
      "gh_token",
      "NODE_OPTIONS",
      "BUN_OPTIONS",
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "DYLD_INSERT_LIBRARIES",
      "PYTHONSTARTUP",
      "JAVA_TOOL_OPTIONS",
      "SSH_AUTH_SOCK",
      "PYTHONWARNINGS",
      "PYTHONBREAKPOINT",
      "SHELLOPTS",
      "BASHOPTS",
      "PS4",
      "PERL5DB",
      "LUA_INIT",
      "LUA_INIT_5_4",
      "DOTNET_STARTUP_HOOKS",
      "CORECLR_PROFILER",
      "COR_PROFILER",
      "GCONV_PATH",
      "GIT_PROXY_COMMAND",
      "ZDOTDIR",
      "PHPRC",
    ]) {
      expect(isDeniedEnvName(name)).toBe(true);
    }
    for (const name of [
      "DOCKER_HOST",
      "EDITOR",
      "PLUGIN_MODE",
      "GIT_AUTHOR_NAME",
      "KEYBOARD_LAYOUT",
      "CORE_COUNT",
      "DOTNET_ROOT",
      "PYTHONUNBUFFERED",
    ])
      expect(isDeniedEnvName(name)).toBe(false);
  });

  test("a manifest sets values, but cannot name a denied variable", () => {
    const { env, dropped } = buildChildEnv(host, {
      declared: { MODE: "fast", NODE_OPTIONS: "--inspect", LD_PRELOAD: "./x.so", API_TOKEN: "literal" },
    });
    expect(env.MODE).toBe("fast");
    expect(env.NODE_OPTIONS).toBeUndefined();
    expect(env.LD_PRELOAD).toBeUndefined();
    expect(env.API_TOKEN).toBeUndefined();
    expect(dropped.sort()).toEqual(["API_TOKEN", "LD_PRELOAD", "NODE_OPTIONS"]);
  });

  test("a host variable passes only when the user named it, and never a denied one", () => {
    const { env, dropped } = buildChildEnv(host, { passEnv: ["DOCKER_HOST", "GITHUB_TOKEN", "LD_PRELOAD", "NOT_SET"] });
    expect(env.DOCKER_HOST).toBe("unix:///run/docker.sock");
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.LD_PRELOAD).toBeUndefined();
    expect("NOT_SET" in env).toBe(false);
    expect(dropped.sort()).toEqual(["GITHUB_TOKEN", "LD_PRELOAD"]);
    expect(buildChildEnv(host).env.DOCKER_HOST).toBeUndefined();
  });

  test("values gjc fixes are set last", () => {
    const { env } = buildChildEnv(host, { declared: { PLUGIN_ROOT: "/evil" }, fixed: { PLUGIN_ROOT: "/bundle" } });
    expect(env.PLUGIN_ROOT).toBe("/bundle");
  });
});
