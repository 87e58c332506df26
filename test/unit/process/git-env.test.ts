/** git is the user's own program, but it too starts from the child allow-list (issue #12 item 7). */
import { describe, expect, test } from "bun:test";
import { gitStatusEnv } from "../../../src/c2host/git-status.ts";
import { createContext } from "../../../src/core/context.ts";
import { gitEnv } from "../../../src/sources/run-git.ts";

const host = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  GITHUB_TOKEN: "ghp_secret",
  AWS_SECRET_ACCESS_KEY: "aws",
  NODE_OPTIONS: "--require /tmp/evil.js",
  LD_PRELOAD: "/tmp/evil.so",
  GIT_DIR: "/elsewhere/.git",
  GIT_WORK_TREE: "/elsewhere",
  GIT_CONFIG_PARAMETERS: "'core.fsmonitor=/tmp/evil'",
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "core.sshCommand",
  GIT_CONFIG_VALUE_0: "/tmp/evil",
  GIT_CONFIG_GLOBAL: "/home/u/.gitconfig-test",
  SSH_AUTH_SOCK: "/run/user/1/agent.sock",
  HTTPS_PROXY: "http://proxy:3128",
  DOCKER_HOST: "unix:///run/docker.sock",
};

describe("git's environment", () => {
  test("sources: the allow-list, the user's git config, ssh agent and proxy; no secret, loader or repository override", () => {
    const env = gitEnv(createContext({ env: host, cwd: "/", quiet: true }));
    expect(env.PATH).toBe("/usr/bin");
    expect(env.GIT_CONFIG_GLOBAL).toBe("/home/u/.gitconfig-test");
    expect(env.SSH_AUTH_SOCK).toBe("/run/user/1/agent.sock");
    expect(env.HTTPS_PROXY).toBe("http://proxy:3128");
    expect(env.GIT_TERMINAL_PROMPT).toBe("0");
    for (const name of [
      "GITHUB_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "NODE_OPTIONS",
      "LD_PRELOAD",
      "GIT_DIR",
      "GIT_WORK_TREE",
      "GIT_CONFIG_PARAMETERS",
      "GIT_CONFIG_COUNT",
      "GIT_CONFIG_KEY_0",
      "GIT_CONFIG_VALUE_0",
      "DOCKER_HOST",
    ]) {
      expect([name, name in env]).toEqual([name, false]);
    }
  });

  test("git.status: the allow-list and no host GIT_* variable at all", () => {
    const env = gitStatusEnv(host);
    expect(env.PATH).toBe("/usr/bin");
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith("GIT_"))
        .sort(),
    ).toEqual(["GIT_OPTIONAL_LOCKS", "GIT_PAGER", "GIT_TERMINAL_PROMPT"]);
    for (const name of ["GITHUB_TOKEN", "SSH_AUTH_SOCK", "NODE_OPTIONS", "LD_PRELOAD", "DOCKER_HOST"])
      expect([name, name in env]).toEqual([name, false]);
  });
});
