import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parsePrivateKey } from "../../src/signing/private-key.ts";
import { armorSignature, signMessage } from "../../src/signing/sshsig.ts";
import { fixturesDir } from "../helpers/cli.ts";
import { makeKey, type TestKey } from "../helpers/ssh-keys.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { makeWorld, writeBundle, type World } from "./gjc-install-fixture.ts";

let w: World;
afterEach(() => w?.cleanup());

const registry = (root: string) => JSON.parse(readFileSync(join(root, "registry.json"), "utf8"));
const keyText = (k: TestKey) => k.publicLine.split(" ").slice(0, 2).join(" ");

/** Runs a command that must be refused and proves nothing changed anywhere in the world. */
async function refused(args: string[], code: string, exit = 3) {
  const before = snapshotTree(w.root);
  const r = await w.gjc([...args, "--json"]);
  expect({ exit: r.exitCode, code: r.json().error?.code }).toEqual({ exit, code });
  expect(JSON.parse(r.stderr.trim().split("\n").pop()!).error.code).toBe(code);
  expect(snapshotTree(w.root)).toEqual(before);
  return r.json().error as { code: string; message: string; details?: Record<string, unknown> };
}

async function ok(args: string[]) {
  const r = await w.gjc([...args, "--json"]);
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return r.json();
}

function setup(): { src: string; key: TestKey; keyFile: string } {
  w = makeWorld();
  const key = makeKey("ed25519", "publisher@acme.example");
  const keyFile = key.write(w.root, "publisher");
  return { src: writeBundle(join(w.root, "src", "demo"), "demo"), key, keyFile };
}

describe("gjc plugin digest and sign", () => {
  test("digest prints exactly the integrity line the lock records, and signing does not change it", async () => {
    const { src, keyFile } = setup();
    const d = await w.gjc(["plugin", "digest", src]);
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    const signed = await ok(["plugin", "sign", src, "--key", keyFile, "--identity", "publisher@acme.example"]);
    expect(signed.file).toBe(join(src, "gjc-signature.sshsig"));
    expect(signed.message).toBe(d.stdout);
    expect(signed.allowedSignersLine).toStartWith('publisher@acme.example namespaces="gjc-plugin" ssh-ed25519 ');
    expect((await w.gjc(["plugin", "digest", src])).stdout).toBe(d.stdout);
    await ok(["plugin", "install", src, "--user"]);
    await ok(["plugin", "lock", "--user"]);
    const lock = JSON.parse(readFileSync(join(w.user, "..", "plugins.lock.json"), "utf8"));
    const entry = (lock.plugins ?? lock.bundles ?? Object.values(lock).find(Array.isArray)).find(
      (e: { name: string }) => e.name === "demo",
    );
    expect(`${entry.integrity}\n`).toBe(d.stdout);
  });

  test("validate does not flag the signature file, and a C2 bundle's digest leaves it out", async () => {
    const { keyFile } = setup();
    const c2 = join(w.root, "src", "hello");
    cpSync(join(fixturesDir, "examples", "hello-runtime"), c2, { recursive: true });
    const before = (await w.gjc(["plugin", "digest", c2])).stdout;
    const validBefore = (await w.gjc(["plugin", "validate", c2, "--json"])).json();
    await ok(["plugin", "sign", c2, "--key", keyFile]);
    expect((await w.gjc(["plugin", "digest", c2])).stdout).toBe(before);
    const validAfter = (await w.gjc(["plugin", "validate", c2, "--json"])).json();
    expect(validAfter).toEqual(validBefore);
  });

  test("a key that cannot sign is refused before anything is written", async () => {
    const { src } = setup();
    writeFileSync(join(w.root, "junk.key"), "not a key\n");
    await refused(["plugin", "sign", src, "--key", join(w.root, "junk.key")], "signing_key_unusable", 1);
    await refused(["plugin", "sign", src, "--key", join(w.root, "missing.key")], "signing_key_unusable", 1);
    // A public key with no agent to hold it.
    await refused(["plugin", "sign", src, "--key", join(w.root, "publisher.pub")], "signing_key_unusable", 1);
  });

  test("pack --sign writes <archive>.sig, and installing the archive checks it", async () => {
    const { src, keyFile } = setup();
    const archive = join(w.root, "demo.tgz");
    const packed = await ok(["plugin", "pack", src, "-o", archive, "--sign", keyFile]);
    expect(packed.signature.file).toBe(`${archive}.sig`);
    const installed = await ok(["plugin", "install", archive, "--user"]);
    expect(installed.signature.status).toBe("unknown-signer");
    expect(installed.signature.signer.fingerprint).toBe(packed.signature.fingerprint);
  });
});

describe("install verifies signatures", () => {
  test("unknown key: installed with a warning, and the key is remembered in the registry and shown by list and inspect", async () => {
    const { src, keyFile } = setup();
    const s = await ok(["plugin", "sign", src, "--key", keyFile]);
    const r = await w.gjc(["plugin", "install", src, "--user"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("unknown_signer");
    expect(r.stderr).toContain(s.fingerprint);
    expect(registry(w.user).plugins[0].signer).toEqual({ fingerprint: s.fingerprint, keyType: "ssh-ed25519" });
    expect((await ok(["plugin", "list"])).bundles[0].signer.fingerprint).toBe(s.fingerprint);
    expect((await ok(["plugin", "inspect", "demo"])).bundle.signer.fingerprint).toBe(s.fingerprint);
  });

  test("a trusted publisher: the identity is recorded and listed, without a warning", async () => {
    const { src, keyFile } = setup();
    await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`]);
    await ok(["plugin", "sign", src, "--key", keyFile]);
    const r = await w.gjc(["plugin", "install", src, "--user", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain("unknown_signer");
    expect(r.json().signature).toMatchObject({ status: "trusted", signer: { identity: "publisher@acme.example" } });
    expect((await ok(["plugin", "list"])).bundles[0].signer.identity).toBe("publisher@acme.example");
  });

  test("a tampered file is signature_invalid, exit 3, nothing written", async () => {
    const { src, keyFile } = setup();
    await ok(["plugin", "sign", src, "--key", keyFile]);
    writeFileSync(join(src, "tools", "demo_tool.ts"), "export default function tool() { return 2; }\n");
    const e = await refused(["plugin", "install", src, "--user"], "signature_invalid");
    expect(e.message).toContain("does not match its content");
    await refused(["plugin", "install", src, "--user", "--dry-run"], "signature_invalid");
  });

  test("a signature for another namespace, or one that is not a signature, is signature_invalid", async () => {
    const { src, key } = setup();
    const digest = (await w.gjc(["plugin", "digest", src])).stdout;
    const sig = await signMessage(parsePrivateKey(key.privatePem), new TextEncoder().encode(digest), "file");
    writeFileSync(join(src, "gjc-signature.sshsig"), armorSignature(sig));
    const e = await refused(["plugin", "install", src, "--user"], "signature_invalid");
    expect(e.message).toContain('namespace "file"');
    writeFileSync(
      join(src, "gjc-signature.sshsig"),
      "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n",
    );
    await refused(["plugin", "install", src, "--user"], "signature_invalid");
  });

  test("a key past its valid-before, or outside its namespaces or --for names, is signer_not_allowed", async () => {
    const { src, key, keyFile } = setup();
    await ok(["plugin", "sign", src, "--key", keyFile]);
    const file = join(w.home, ".config", "gjc", "allowed_signers");
    await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`]);
    writeFileSync(file, `publisher@acme.example valid-before=20200101Z ${keyText(key)}\n`);
    expect((await refused(["plugin", "install", src, "--user"], "signer_not_allowed")).message).toContain("expired");
    writeFileSync(file, `publisher@acme.example namespaces="file" ${keyText(key)}\n`);
    await refused(["plugin", "install", src, "--user"], "signer_not_allowed");
    writeFileSync(file, "");
    await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`, "--for", "acme-*"]);
    expect((await refused(["plugin", "install", src, "--user"], "signer_not_allowed")).message).toContain("acme-*");
  });

  test("a revoked key is refused, and cannot be trusted again by signers add or a project file", async () => {
    const { src, key, keyFile } = setup();
    await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`]);
    await ok(["plugin", "sign", src, "--key", keyFile]);
    const rev = await ok(["signers", "revoke", "publisher@acme.example"]);
    expect(rev.removed).toBe(1);
    writeFileSync(join(w.project, ".gjc-allowed"), "");
    const project = join(w.project, ".gjc");
    require("node:fs").mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "allowed_signers"), `publisher@acme.example ${keyText(key)}\n`);
    await refused(["plugin", "install", src, "--project"], "signer_revoked");
    await refused(["plugin", "install", src, "--user"], "signer_revoked");
    await refused(["signers", "add", "x@y", `${keyFile}.pub`], "signer_revoked");
    expect((await ok(["signers", "list"])).revoked.map((k: { fingerprint: string }) => k.fingerprint)).toEqual([
      rev.revoked[0].fingerprint,
    ]);
  });

  test("a project's allowed_signers counts for the project's bundles only", async () => {
    const { src, key, keyFile } = setup();
    await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["signers", "add", "team@acme.example", `${keyFile}.pub`, "--project"]);
    expect(readFileSync(join(w.project, ".gjc", "allowed_signers"), "utf8")).toContain(keyText(key));
    expect((await ok(["plugin", "install", src, "--project"])).signature.status).toBe("trusted");
    expect((await ok(["plugin", "install", src, "--user"])).signature.status).toBe("unknown-signer");
  });

  test("another signer on upgrade is signer_changed with both fingerprints, until --accept-signer or the key is trusted", async () => {
    const { src, keyFile } = setup();
    const first = await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "install", src, "--user"]);
    const other = makeKey("ecdsa", "intruder@example").write(w.root, "intruder");
    writeBundle(src, "demo", { version: "1.1.0" });
    const second = await ok(["plugin", "sign", src, "--key", other]);
    const e = await refused(["plugin", "upgrade", "demo", "--user"], "signer_changed");
    expect(e.message).toContain(first.fingerprint);
    expect(e.message).toContain(second.fingerprint);
    await refused(["plugin", "install", src, "--user", "--force"], "signer_changed");
    const up = await ok(["plugin", "upgrade", "demo", "--user", "--accept-signer"]);
    expect(up.version).toBe("1.1.0");
    expect(registry(w.user).plugins[0].signer.fingerprint).toBe(second.fingerprint);
    // Trusting the key is the other way: a third key that is trusted needs no flag.
    const third = makeKey("ed25519", "new@acme.example").write(w.root, "third");
    writeBundle(src, "demo", { version: "1.2.0" });
    await ok(["plugin", "sign", src, "--key", third]);
    await refused(["plugin", "upgrade", "demo", "--user"], "signer_changed");
    await ok(["signers", "add", "new@acme.example", `${third}.pub`]);
    expect((await ok(["plugin", "upgrade", "demo", "--user"])).version).toBe("1.2.0");
  });

  test("upgrade --all holds the same policy per bundle: signer_changed until --accept-signer, unsigned_bundle under --require-signed", async () => {
    const { src, keyFile } = setup();
    await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "install", src, "--user"]);
    const other = makeKey("ed25519", "intruder@example").write(w.root, "intruder");
    writeBundle(src, "demo", { version: "1.1.0" });
    const second = await ok(["plugin", "sign", src, "--key", other]);
    const outcome = async (args: string[]) => {
      const before = snapshotTree(w.user);
      const r = await w.gjc(["plugin", "upgrade", "--all", "--user", ...args, "--json"]);
      return { r, doc: r.json(), unchanged: Bun.deepEquals(snapshotTree(w.user), before) };
    };
    const refusedChange = await outcome([]);
    expect(refusedChange.r.exitCode).toBe(1);
    expect(refusedChange.doc.outcomes[0]).toMatchObject({ name: "demo", outcome: "failed" });
    expect(refusedChange.doc.outcomes[0].reasons[0].code).toBe("signer_changed");
    expect(refusedChange.unchanged).toBe(true);

    const accepted = await outcome(["--accept-signer"]);
    expect(accepted.r.exitCode).toBe(0);
    expect(accepted.doc.outcomes[0]).toMatchObject({ name: "demo", outcome: "upgraded", to: "1.1.0" });
    expect(registry(w.user).plugins[0].signer.fingerprint).toBe(second.fingerprint);

    require("node:fs").rmSync(join(src, "gjc-signature.sshsig"));
    writeBundle(src, "demo", { version: "1.2.0" });
    const unsigned = await outcome(["--require-signed", "--accept-signer"]);
    expect(unsigned.r.exitCode).toBe(1);
    expect(unsigned.doc.outcomes[0].reasons[0].code).toBe("unsigned_bundle");
    expect(unsigned.unchanged).toBe(true);
    expect(registry(w.user).plugins[0].version).toBe("1.1.0");
  });

  test("signed content that comes back unsigned is signer_changed too", async () => {
    const { src, keyFile } = setup();
    await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "install", src, "--user"]);
    require("node:fs").rmSync(join(src, "gjc-signature.sshsig"));
    writeBundle(src, "demo", { version: "1.1.0" });
    expect((await refused(["plugin", "upgrade", "demo", "--user"], "signer_changed")).message).toContain("not signed");
  });

  test("--require-signed refuses an unsigned bundle with unsigned_bundle", async () => {
    const { src } = setup();
    await refused(["plugin", "install", src, "--user", "--require-signed"], "unsigned_bundle");
    expect(existsSync(join(w.user, "registry.json"))).toBe(false);
  });

  test("C2: the record keeps the signer; a tampered bundle is refused", async () => {
    const { keyFile } = setup();
    const c2 = join(w.root, "src", "hello");
    cpSync(join(fixturesDir, "examples", "hello-runtime"), c2, { recursive: true });
    const s = await ok(["plugin", "sign", c2, "--key", keyFile]);
    const r = await ok(["plugin", "install", c2]);
    expect(r.signature.signer.fingerprint).toBe(s.fingerprint);
    const row = (await ok(["plugin", "list"])).bundles.find((b: { name: string }) => b.name === "hello-runtime");
    expect(row.signer.fingerprint).toBe(s.fingerprint);
    writeFileSync(join(c2, "README.md"), "changed\n");
    await refused(["plugin", "install", c2, "--force"], "signature_invalid");
  });
});

describe("gjc signers", () => {
  test("add, list, remove: the file is ssh-keygen's format and unchanged adds are no-ops", async () => {
    const { keyFile } = setup();
    const a = await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`, "--for", "acme-*"]);
    expect(a.status).toBe("added");
    expect((await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`, "--for", "acme-*"])).status).toBe(
      "unchanged",
    );
    const text = readFileSync(a.file, "utf8");
    expect(text).toMatch(/^publisher@acme\.example namespaces="gjc-plugin" ssh-ed25519 \S+ gjc-for=acme-\*\n$/);
    const list = await ok(["signers", "list"]);
    expect(list.signers).toEqual([
      expect.objectContaining({
        identity: "publisher@acme.example",
        fingerprint: a.fingerprint,
        forNames: "acme-*",
        namespaces: "gjc-plugin",
        revoked: false,
        unusable: null,
      }),
    ]);
    await ok(["signers", "remove", a.fingerprint]);
    expect((await ok(["signers", "list"])).signers).toEqual([]);
    await refused(["signers", "remove", "nobody@example"], "signer_not_found", 1);
    await refused(["signers", "add", "bad identity", `${keyFile}.pub`], "invalid_option_value", 2);
    writeFileSync(join(w.root, "junk.pub"), "hello\n");
    await refused(["signers", "add", "x@y", join(w.root, "junk.pub")], "invalid_signer_key", 2);
  });
});

describe("sync and the lock", () => {
  const lockFile = () => join(w.user, "..", "plugins.lock.json");
  const readLock = () => JSON.parse(readFileSync(lockFile(), "utf8"));

  test("the lock records the signer; sync --frozen refuses content signed by another key, with nothing written", async () => {
    const { src, keyFile } = setup();
    const a = await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "install", src, "--user"]);
    await ok(["plugin", "lock", "--user"]);
    expect(readLock().bundles[0].signer).toBe(a.fingerprint);
    expect((await ok(["plugin", "lock", "--user", "--check"])).ok).toBe(true);
    await ok(["plugin", "uninstall", "demo", "--user"]);
    // The same bytes, signed by someone else: the digest (and the lock's integrity) is unchanged.
    const other = makeKey("ecdsa", "intruder@example").write(w.root, "intruder");
    const b = await ok(["plugin", "sign", src, "--key", other]);
    expect(b.integrity).toBe(a.integrity);
    const e = await refused(["plugin", "sync", "--user", "--frozen"], "signer_changed");
    expect(e.message).toContain(a.fingerprint);
    expect(e.message).toContain(b.fingerprint);
    // Even a trusted key is not the lock's key under --frozen.
    await ok(["signers", "add", "intruder@example", `${other}.pub`]);
    await refused(["plugin", "sync", "--user", "--frozen"], "signer_changed");
    await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "sync", "--user", "--frozen"]);
    expect(registry(w.user).plugins[0].signer.fingerprint).toBe(a.fingerprint);
  });

  test("requireSigned: true in the lock refuses an unsigned bundle with unsigned_bundle", async () => {
    const { src } = setup();
    await ok(["plugin", "install", src, "--user"]);
    await ok(["plugin", "lock", "--user"]);
    await ok(["plugin", "uninstall", "demo", "--user"]);
    writeFileSync(lockFile(), JSON.stringify({ ...readLock(), requireSigned: true }, null, 2));
    await refused(["plugin", "sync", "--user"], "unsigned_bundle");
    await refused(["plugin", "sync", "--user", "--offline"], "unsigned_bundle");
  });
});

describe("audit", () => {
  test("audit of a source checks its signature; audit of an installed bundle shows the recorded signer", async () => {
    const { src, keyFile } = setup();
    await ok(["signers", "add", "publisher@acme.example", `${keyFile}.pub`]);
    const s = await ok(["plugin", "sign", src, "--key", keyFile]);
    const a = await ok(["plugin", "audit", src]);
    expect(a.signature).toEqual({
      status: "trusted",
      signer: { fingerprint: s.fingerprint, keyType: "ssh-ed25519", identity: "publisher@acme.example" },
    });
    const human = await w.gjc(["plugin", "audit", src]);
    expect(human.stdout).toContain(`signed publisher@acme.example ${s.fingerprint}`);
    await ok(["plugin", "install", src, "--user"]);
    expect((await ok(["plugin", "audit", "demo", "--user"])).signature.signer.identity).toBe("publisher@acme.example");
    writeFileSync(join(src, "tools", "demo_tool.ts"), "export default 3;\n");
    await refused(["plugin", "audit", src], "signature_invalid");
  });
});

describe("the signature file is never bundle content", () => {
  test("a GJC manifest that declares gjc-signature.sshsig is refused by validate and install", async () => {
    w = makeWorld();
    const src = writeBundle(join(w.root, "src", "demo"), "demo", { tools: ["t"] });
    const manifest = JSON.parse(readFileSync(join(src, "gajae-plugin.json"), "utf8"));
    manifest.tools[0].path = "gjc-signature.sshsig";
    writeFileSync(join(src, "gajae-plugin.json"), JSON.stringify(manifest));
    writeFileSync(join(src, "gjc-signature.sshsig"), "export default 1;\n");
    const v = await w.gjc(["plugin", "validate", src, "--json"]);
    expect(v.exitCode).toBe(1);
    expect(JSON.stringify(v.json())).toContain("detached signature");
    await refused(["plugin", "install", src, "--user"], "missing_file", 1);
  });
});

describe("signer files are read without trusting links", () => {
  test("an allowed_signers that is a symbolic link is refused (signers_unreadable), by list and by install", async () => {
    const { src, key, keyFile } = setup();
    await ok(["plugin", "sign", src, "--key", keyFile]);
    const elsewhere = join(w.root, "elsewhere");
    writeFileSync(elsewhere, `publisher@acme.example ${keyText(key)}\n`);
    require("node:fs").mkdirSync(join(w.home, ".config", "gjc"), { recursive: true });
    require("node:fs").symlinkSync(elsewhere, join(w.home, ".config", "gjc", "allowed_signers"));
    await refused(["signers", "list"], "signers_unreadable");
    await refused(["plugin", "install", src, "--user"], "signers_unreadable");
  });
});

describe("rollback keeps what gjc recorded", () => {
  test("rolling a signed bundle back (offline, from the cache) keeps its recorded signer", async () => {
    const { src, keyFile } = setup();
    const s = await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "install", src, "--user"]);
    await ok(["plugin", "lock", "--user"]);
    writeBundle(src, "demo", { version: "1.1.0" });
    await ok(["plugin", "sign", src, "--key", keyFile]);
    await ok(["plugin", "upgrade", "demo", "--user"]);
    const back = await ok(["plugin", "rollback", "demo", "--user"]);
    expect(back.to.version).toBe("1.0.0");
    expect(registry(w.user).plugins[0]).toMatchObject({ version: "1.0.0", signer: { fingerprint: s.fingerprint } });
  });
});
