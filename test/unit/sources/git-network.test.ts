/**
 * https git remotes are judged like archive URLs (src/sources/checked-addresses.ts): denied
 * literal hosts are refused before git is even started, DNS answers are judged, and git is
 * pinned to the judged addresses with http.curloptResolve.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import type { FetchOptions, SourceSpec } from "../../../src/sources/types.ts";
import { gitConfig, gitSandbox, makeRepo, type GitSandbox } from "../../helpers/git.ts";
import { area, expectEmpty, MANIFESTS, quietContext, refusal, type Area } from "./_support.ts";

let a: Area;
let sb: GitSandbox;
afterEach(() => a?.cleanup());

/** A sandbox whose PATH starts with a `git` that appends its argv to a log, then runs the real git. */
function setup() {
  a = area();
  sb = gitSandbox(a.root);
  const bin = join(a.root, "bin");
  const log = join(a.root, "git-calls.log");
  const real = Bun.which("git") as string;
  Bun.spawnSync(["mkdir", "-p", bin]);
  writeFileSync(join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  const env = { ...sb.env, PATH: `${bin}:${sb.env.PATH}` };
  return {
    ctx: quietContext(a.root, env),
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
  };
}
const opts = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
  scratchRoot: a.scratch,
  limits: GJC_LIMITS,
  manifestNames: MANIFESTS,
  gitTimeoutMs: 20_000,
  ...extra,
});
const gitSpec = (url: string): SourceSpec => ({ kind: "git", raw: url, url });

describe("https git remotes are judged before git runs", () => {
  test("loopback, metadata, mapped and numeric IPv4 spellings and localhost: security_policy, git never started, no scratch", async () => {
    const { ctx, calls } = setup();
    for (const url of [
      "https://127.0.0.1/x.git",
      "https://169.254.169.254/x.git",
      "https://2130706433/x.git",
      "https://0x7f.1/x.git",
      "https://[::ffff:127.0.0.1]/x.git",
      "https://[::1]/x.git",
      "https://10.0.0.8/x.git",
      "https://localhost/x.git",
      "https://repo.localhost./x.git",
      "https://tok:secret@127.0.0.1/x.git",
      "https://a@b@example.com/x.git",
      "https://127.0.0.1\\@example.com/x.git",
    ]) {
      const e = await refusal(fetchSource(ctx, gitSpec(url), opts()), "security_policy", 3);
      expect(e.message).not.toContain("secret");
    }
    expect(calls()).toEqual([]);
    expectEmpty(a.scratch);
  });

  test("ext::, fd:: and plain http are refused before git runs, typed or from a catalog", async () => {
    const { ctx, calls } = setup();
    for (const raw of [
      "ext::sh -c touch% /tmp/pwned",
      "ext::true",
      "fd::3",
      "fd::0,1",
      "http://[::ffff:127.0.0.1]/x.git",
      "http://example.com/x.git",
    ]) {
      await expect(Promise.resolve().then(() => parseSourceSpec(raw, ctx))).rejects.toThrow();
      const e = await refusal(
        fetchSource(ctx, gitSpec(raw), opts()),
        raw.includes(" ") ? "invalid_source" : "security_policy",
        raw.includes(" ") ? 2 : 3,
      );
      expect(e.code).toBeDefined();
    }
    expect(calls()).toEqual([]);
    expectEmpty(a.scratch);
  });

  test("a name whose DNS answers include a denied address is refused before git connects; scratch removed", async () => {
    const { ctx, calls } = setup();
    const resolver = async () => ["93.184.215.14", "127.0.0.1"];
    const e = await refusal(
      fetchSource(ctx, gitSpec("https://git.example.com/x.git"), opts({ net: { resolver } })),
      "security_policy",
      3,
    );
    expect(e.message).toContain("denied address");
    // Only our own bare init and git's URL expansion ran; never a fetch.
    expect(calls().some((c) => c.includes(" fetch "))).toBe(false);
    expectEmpty(a.scratch);
  });

  test("git connects to the judged address (http.curloptResolve pin), not to a fresh DNS answer", async () => {
    const { ctx, calls } = setup();
    let connected = 0;
    const listener = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(s) {
          connected++;
          s.end();
        },
        data() {},
      },
    });
    try {
      // The name does not exist in DNS; only the pin can take git to the listener.
      const url = `https://pinned.invalid:${listener.port}/x.git`;
      await refusal(
        fetchSource(ctx, gitSpec(url), opts({ net: { resolveAddresses: async () => ["127.0.0.1"] } })),
        "source_unreachable",
        4,
      );
      expect(connected).toBeGreaterThan(0);
      const fetch = calls().find((c) => c.includes(" fetch ")) as string;
      expect(fetch).toContain(`http.curloptResolve=pinned.invalid:${listener.port}:127.0.0.1`);
      expect(fetch).toContain("http.followRedirects=false");
      expectEmpty(a.scratch);
    } finally {
      listener.stop(true);
    }
  });

  test("a remote rewritten by the user's own insteadOf goes where the user mapped it, unresolved", async () => {
    const { ctx } = setup();
    const repo = makeRepo(sb, join(a.root, "srv", "o", "r.git"), {
      "gajae-plugin.json": { name: "demo", version: "1.0.0" },
    });
    gitConfig(sb, `url.${join(a.root, "srv")}/.insteadOf`, "https://mirror.example/");
    // A resolver that would refuse the name proves the rewritten remote is not resolved.
    const got = await fetchSource(
      ctx,
      parseSourceSpec("https://mirror.example/o/r.git", ctx),
      opts({ net: { resolver: async () => ["127.0.0.1"] } }),
    );
    expect(got.record).toMatchObject({ kind: "git", sha: repo.head() });
    await got.cleanup();
    // The literal host is still judged: a denied one is refused even when a rule would rewrite it.
    gitConfig(sb, `url.${join(a.root, "srv")}/.insteadOf`, "https://127.0.0.1/");
    await refusal(fetchSource(ctx, gitSpec("https://127.0.0.1/o/r.git"), opts()), "security_policy", 3);
    expectEmpty(a.scratch);
  });
});
