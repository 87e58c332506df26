import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { isGjcError } from "../../../src/core/errors.ts";
import {
  readReleaseLogState,
  releaseLogStatePath,
  rememberVerified,
  writeReleaseLogState,
} from "../../../src/store/release-log-state.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";

const box = sandboxPerTest("gjc-tlog-state-");
const head = (size: number) => ({
  origin: "example.com/log",
  key: "example.com/log+00000000+AQ==",
  size,
  root: "r".repeat(43) + "=",
  checkpoint: "c\n",
});
const codeOf = (f: () => unknown) => {
  try {
    f();
    return "no error";
  } catch (e) {
    return isGjcError(e) ? `${e.code}/${e.exit}` : String(e);
  }
};

describe("the remembered release-log state", () => {
  test("none at first; written signed with the state key, 0600; read back", () => {
    const ctx = box().context();
    expect(readReleaseLogState(ctx)).toEqual({ heads: {}, releases: {}, sources: {} });
    rememberVerified(ctx, [head(2)], [], { identity: "path:/x", origin: "example.com/log" });
    const text = readFileSync(releaseLogStatePath(ctx), "utf8");
    expect(statSync(releaseLogStatePath(ctx)).mode & 0o777).toBe(0o600);
    expect(text).toMatch(/^\{"version":1,"logs":\{.*\},"mac":"hmac-sha256:[0-9a-f]{64}"\}\n$/);
    const state = readReleaseLogState(ctx);
    expect(state.heads["example.com/log"]).toMatchObject({ size: 2 });
    expect(state.sources).toEqual({ "path:/x": "example.com/log" });
  });

  test("a head is only replaced by a larger one", () => {
    const ctx = box().context();
    rememberVerified(ctx, [head(5)], []);
    rememberVerified(ctx, [head(3)], []);
    expect(readReleaseLogState(ctx).heads["example.com/log"].size).toBe(5);
    rememberVerified(ctx, [head(8)], []);
    expect(readReleaseLogState(ctx).heads["example.com/log"].size).toBe(8);
  });

  test("edited, reformatted, unsigned or signed with another key: foreign (exit 3)", () => {
    const ctx = box().context();
    writeReleaseLogState(ctx, {
      heads: { "example.com/log": { ...head(4), verifiedAt: "t" } },
      releases: {},
      sources: {},
    });
    const path = releaseLogStatePath(ctx);
    const good = readFileSync(path, "utf8");
    for (const bad of [
      good.replace('"size":4', '"size":1'),
      JSON.stringify(JSON.parse(good), null, 2),
      good.replace(/,"mac":"[^"]+"/, ""),
      "not json\n",
    ]) {
      writeFileSync(path, bad);
      expect(codeOf(() => readReleaseLogState(ctx))).toBe("log_state_foreign/3");
    }
    writeFileSync(path, good);
    expect(readReleaseLogState(ctx).heads["example.com/log"].size).toBe(4);
    // The same bytes in another user's home (another state key): not theirs.
    const other = box().context();
    rememberVerified(other, [head(1)], []);
    writeFileSync(releaseLogStatePath(other), good);
    expect(codeOf(() => readReleaseLogState(other))).toBe("log_state_foreign/3");
  });
});
