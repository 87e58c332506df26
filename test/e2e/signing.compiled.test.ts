/** Signed bundles through the compiled binary (no ssh-keygen needed: keys are made by the test). */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { makeKey } from "../helpers/ssh-keys.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

const gjc = async (args: string[]) => w.gjc([...args, "--json"], { binary: await compiledBinary() });
async function ok(args: string[]) {
  const r = await gjc(args);
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return r.json();
}
async function refused(args: string[], code: string) {
  const before = snapshotTree(w.root);
  const r = await gjc(args);
  expect({ exit: r.exitCode, code: r.json().error?.code }).toEqual({ exit: 3, code });
  expect(snapshotTree(w.root)).toEqual(before);
}

describe("compiled: signed bundles", () => {
  test("sign, trust, install; tampered content, another signer and unsigned content under --require-signed are refused", async () => {
    w = makeWorld();
    const key = makeKey("ed25519", "pub@example").write(w.root, "pub");
    const other = makeKey("ecdsa", "other@example").write(w.root, "other");
    const src = writeBundle(join(w.root, "src", "demo"), "demo");
    await refused(["plugin", "install", src, "--user", "--require-signed"], "unsigned_bundle");
    const s = await ok(["plugin", "sign", src, "--key", key]);
    await ok(["signers", "add", "pub@example", `${key}.pub`]);
    expect((await ok(["plugin", "install", src, "--user"])).signature).toMatchObject({
      status: "trusted",
      signer: { fingerprint: s.fingerprint, identity: "pub@example" },
    });
    writeBundle(src, "demo", { version: "1.1.0" });
    await refused(["plugin", "upgrade", "demo", "--user"], "signature_invalid");
    await ok(["plugin", "sign", src, "--key", other]);
    await refused(["plugin", "upgrade", "demo", "--user"], "signer_changed");
    writeFileSync(join(src, "gjc-signature.sshsig"), "junk\n");
    await refused(["plugin", "upgrade", "demo", "--user"], "signature_invalid");
  });
});
