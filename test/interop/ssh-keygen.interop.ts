/**
 * Interop with the real OpenSSH (`ssh-keygen`, `ssh-agent`, `ssh-add`), in both directions,
 * through the CLI from source and from the compiled binary. Not part of `bun test` (the file
 * name does not match its pattern): `bun run test:interop` runs it, and `.ci/run` installs
 * openssh-client first when ssh-keygen is missing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { spawnScoped } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { makeWorld, writeBundle, type World } from "../e2e/gjc-install-fixture.ts";

const SSH_KEYGEN = Bun.which("ssh-keygen");
if (!SSH_KEYGEN) throw new Error("ssh-keygen is required for the interop tests (apt-get install openssh-client)");

let w: World;
afterEach(() => w?.cleanup());

function run(
  cmd: string[],
  o: { stdin?: string; env?: Record<string, string> } = {},
): { code: number; stdout: string; stderr: string } {
  const p = Bun.spawnSync(cmd, {
    stdin: o.stdin === undefined ? "ignore" : new TextEncoder().encode(o.stdin),
    env: { PATH: process.env.PATH ?? "", HOME: w.home, ...o.env },
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

function keygen(name: string, type: "ed25519" | "ecdsa", passphrase = ""): string {
  const path = join(w.root, name);
  const r = run([
    SSH_KEYGEN!,
    "-q",
    "-t",
    type,
    ...(type === "ecdsa" ? ["-b", "256"] : []),
    "-N",
    passphrase,
    "-C",
    `${name}@example`,
    "-f",
    path,
  ]);
  expect(r.code).toBe(0);
  return path;
}

for (const target of ["source", "compiled"] as const) {
  describe(`${target}: gjc and ssh-keygen agree`, () => {
    const gjc = async (args: string[], env: Record<string, string> = {}) =>
      w.gjc(args, { env, ...(target === "compiled" ? { binary: await compiledBinary() } : {}) });
    const ok = async (args: string[], env: Record<string, string> = {}) => {
      const r = await gjc([...args, "--json"], env);
      if (r.exitCode !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
      return r.json();
    };
    const refused = async (args: string[], code: string, exit = 3) => {
      const before = snapshotTree(w.root);
      const r = await gjc([...args, "--json"]);
      expect({ exit: r.exitCode, code: r.json().error?.code }).toEqual({ exit, code });
      expect(snapshotTree(w.root)).toEqual(before);
    };

    for (const type of ["ed25519", "ecdsa"] as const) {
      test(`${type}: gjc verifies what ssh-keygen -Y sign wrote over gjc plugin digest`, async () => {
        w = makeWorld();
        const key = keygen("pub", type);
        const src = writeBundle(join(w.root, "src", "demo"), "demo");
        const digest = (await gjc(["plugin", "digest", src])).stdout;
        writeFileSync(join(w.root, "msg"), digest);
        expect(run([SSH_KEYGEN!, "-Y", "sign", "-n", "gjc-plugin", "-f", key, join(w.root, "msg")]).code).toBe(0);
        writeFileSync(join(src, "gjc-signature.sshsig"), readFileSync(join(w.root, "msg.sig")));
        await ok(["signers", "add", "pub@example", `${key}.pub`]);
        const installed = await ok(["plugin", "install", src, "--user"]);
        expect(installed.signature.status).toBe("trusted");
        // Our fingerprint is the one ssh-keygen -l prints.
        expect(run([SSH_KEYGEN!, "-l", "-f", `${key}.pub`]).stdout).toContain(installed.signature.signer.fingerprint);
      });

      test(`${type}: ssh-keygen -Y verify accepts what gjc plugin sign wrote, against gjc's own allowed_signers`, async () => {
        w = makeWorld();
        const key = keygen("pub", type);
        const src = writeBundle(join(w.root, "src", "demo"), "demo");
        const signed = await ok(["plugin", "sign", src, "--key", key, "--identity", "pub@example"]);
        const allowed = (await ok(["signers", "add", "pub@example", `${key}.pub`, "--for", "demo,acme-*"])).file;
        const digest = (await gjc(["plugin", "digest", src])).stdout;
        const v = run(
          [SSH_KEYGEN!, "-Y", "verify", "-n", "gjc-plugin", "-f", allowed, "-I", "pub@example", "-s", signed.file],
          { stdin: digest },
        );
        expect(v.stdout + v.stderr).toContain('Good "gjc-plugin" signature for pub@example');
        expect(v.code).toBe(0);
        const who = run([SSH_KEYGEN!, "-Y", "find-principals", "-f", allowed, "-s", signed.file]);
        expect(who.stdout.trim()).toBe("pub@example");
        // The line gjc plugin sign --identity prints is one ssh-keygen reads too.
        writeFileSync(join(w.root, "printed"), `${signed.allowedSignersLine}\n`);
        expect(
          run(
            [
              SSH_KEYGEN!,
              "-Y",
              "verify",
              "-n",
              "gjc-plugin",
              "-f",
              join(w.root, "printed"),
              "-I",
              "pub@example",
              "-s",
              signed.file,
            ],
            { stdin: digest },
          ).code,
        ).toBe(0);
        // ssh-keygen agrees that the signature does not cover a changed bundle.
        expect(
          run(
            [SSH_KEYGEN!, "-Y", "verify", "-n", "gjc-plugin", "-f", allowed, "-I", "pub@example", "-s", signed.file],
            { stdin: digest.replace(/.\n$/, "0\n") },
          ).code,
        ).not.toBe(0);
      });
    }

    test("refusals: tampered file, wrong namespace, expired valid-before, revoked key — gjc and ssh-keygen both say no", async () => {
      w = makeWorld();
      const key = keygen("pub", "ed25519");
      const src = writeBundle(join(w.root, "src", "demo"), "demo");
      const digest = (await gjc(["plugin", "digest", src])).stdout;
      writeFileSync(join(w.root, "msg"), digest);
      // Wrong namespace.
      expect(run([SSH_KEYGEN!, "-Y", "sign", "-n", "file", "-f", key, join(w.root, "msg")]).code).toBe(0);
      writeFileSync(join(src, "gjc-signature.sshsig"), readFileSync(join(w.root, "msg.sig")));
      await refused(["plugin", "install", src, "--user"], "signature_invalid");
      // Expired valid-before, written as ssh-keygen documents it.
      await ok(["plugin", "sign", src, "--key", key]);
      const allowed = join(w.home, ".config", "gjc", "allowed_signers");
      mkdirSync(join(w.home, ".config", "gjc"), { recursive: true });
      const pub = readFileSync(`${key}.pub`, "utf8").trim().split(" ").slice(0, 2).join(" ");
      writeFileSync(allowed, `pub@example valid-before="20200101Z" ${pub}\n`);
      await refused(["plugin", "install", src, "--user"], "signer_not_allowed");
      expect(
        run(
          [
            SSH_KEYGEN!,
            "-Y",
            "verify",
            "-n",
            "gjc-plugin",
            "-f",
            allowed,
            "-I",
            "pub@example",
            "-s",
            join(src, "gjc-signature.sshsig"),
          ],
          { stdin: digest },
        ).code,
      ).not.toBe(0);
      // Tampered file.
      writeFileSync(allowed, `pub@example ${pub}\n`);
      writeFileSync(join(src, "tools", "demo_tool.ts"), "export default 2;\n");
      await refused(["plugin", "install", src, "--user"], "signature_invalid");
      const changed = (await gjc(["plugin", "digest", src])).stdout;
      expect(
        run(
          [
            SSH_KEYGEN!,
            "-Y",
            "verify",
            "-n",
            "gjc-plugin",
            "-f",
            allowed,
            "-I",
            "pub@example",
            "-s",
            join(src, "gjc-signature.sshsig"),
          ],
          { stdin: changed },
        ).code,
      ).not.toBe(0);
      // Revoked key.
      await ok(["plugin", "sign", src, "--key", key]);
      await ok(["signers", "revoke", `${key}.pub`]);
      await refused(["plugin", "install", src, "--user"], "signer_revoked");
    });

    test("Ed25519: the armored signature is byte for byte what ssh-keygen -Y sign writes", async () => {
      w = makeWorld();
      const key = keygen("pub", "ed25519");
      const src = writeBundle(join(w.root, "src", "demo"), "demo");
      const signed = await ok(["plugin", "sign", src, "--key", key]);
      writeFileSync(join(w.root, "msg"), signed.message);
      expect(run([SSH_KEYGEN!, "-Y", "sign", "-n", "gjc-plugin", "-f", key, join(w.root, "msg")]).code).toBe(0);
      expect(readFileSync(signed.file, "utf8")).toBe(readFileSync(join(w.root, "msg.sig"), "utf8"));
    });

    test("another ssh-keygen key on upgrade and on sync --frozen is signer_changed; unsigned under --require-signed is unsigned_bundle", async () => {
      w = makeWorld();
      const first = keygen("first", "ed25519");
      const second = keygen("second", "ecdsa");
      const src = writeBundle(join(w.root, "src", "demo"), "demo");
      await refused(["plugin", "install", src, "--user", "--require-signed"], "unsigned_bundle");
      await ok(["plugin", "sign", src, "--key", first]);
      await ok(["plugin", "install", src, "--user", "--require-signed"]);
      await ok(["plugin", "lock", "--user"]);
      writeBundle(src, "demo", { version: "1.1.0" });
      await ok(["plugin", "sign", src, "--key", second]);
      await refused(["plugin", "upgrade", "demo", "--user"], "signer_changed");
      writeBundle(src, "demo", { version: "1.0.0" });
      await ok(["plugin", "sign", src, "--key", second]);
      await ok(["plugin", "uninstall", "demo", "--user"]);
      await refused(["plugin", "sync", "--user", "--frozen"], "signer_changed");
    });

    test("a signature made with an ssh-keygen user certificate is trusted through a cert-authority line, for its principals and validity", async () => {
      w = makeWorld();
      const ca = keygen("ca", "ed25519");
      const user = keygen("user", "ecdsa");
      const src = writeBundle(join(w.root, "src", "demo"), "demo");
      const digest = (await gjc(["plugin", "digest", src])).stdout;
      writeFileSync(join(w.root, "msg"), digest);
      const allowed = join(w.home, ".config", "gjc", "allowed_signers");
      mkdirSync(join(w.home, ".config", "gjc"), { recursive: true });
      const caPub = readFileSync(`${ca}.pub`, "utf8").trim().split(" ").slice(0, 2).join(" ");
      await ok(["signers", "add", "*@acme.example", `${ca}.pub`, "--cert-authority"]);
      expect(readFileSync(allowed, "utf8")).toBe(`*@acme.example cert-authority,namespaces="gjc-plugin" ${caPub}\n`);
      const certify = (principals: string, validity: string) => {
        const made = run([
          SSH_KEYGEN!,
          "-q",
          "-s",
          ca,
          "-I",
          "release",
          "-n",
          principals,
          "-V",
          validity,
          `${user}.pub`,
        ]);
        expect(made.stderr).toBe("");
        expect(made.code).toBe(0);
        rmSync(join(w.root, "msg.sig"), { force: true });
        expect(
          run([SSH_KEYGEN!, "-Y", "sign", "-n", "gjc-plugin", "-f", `${user}-cert.pub`, join(w.root, "msg")]).code,
        ).toBe(0);
        writeFileSync(join(src, "gjc-signature.sshsig"), readFileSync(join(w.root, "msg.sig")));
        return run(
          [
            SSH_KEYGEN!,
            "-Y",
            "verify",
            "-n",
            "gjc-plugin",
            "-f",
            allowed,
            "-I",
            principals.split(",")[0],
            "-s",
            join(src, "gjc-signature.sshsig"),
          ],
          { stdin: digest },
        ).code;
      };
      expect(certify("release@acme.example", "-1d:+1d")).toBe(0);
      const installed = await ok(["plugin", "install", src, "--user", "--dry-run"]);
      expect(installed.signature).toMatchObject({ status: "trusted", signer: { identity: "release@acme.example" } });
      expect(certify("release@elsewhere.example", "-1d:+1d")).not.toBe(0);
      await refused(["plugin", "install", src, "--user"], "signer_not_allowed");
      expect(certify("release@acme.example", "20200101:20200102")).not.toBe(0);
      await refused(["plugin", "install", src, "--user"], "signer_not_allowed");
      await ok(["signers", "revoke", `${ca}.pub`]);
      certify("release@acme.example", "-1d:+1d");
      await refused(["plugin", "install", src, "--user"], "signer_revoked");
    });

    test("an encrypted key signs through ssh-agent (--key naming it or its .pub); without the agent gjc says why", async () => {
      w = makeWorld();
      const key = keygen("locked", "ed25519", "correct horse");
      const src = writeBundle(join(w.root, "src", "demo"), "demo");
      const sock = join(w.root, "agent.sock");
      await refused(["plugin", "sign", src, "--key", key], "signing_key_unusable", 1);
      await using _agent = spawnScoped(["ssh-agent", "-D", "-a", sock], { env: { HOME: w.home } });
      await waitFor(() => existsSync(sock), "the ssh-agent socket");
      const askpass = join(w.root, "askpass");
      writeFileSync(askpass, "#!/bin/sh\necho 'correct horse'\n");
      chmodSync(askpass, 0o700);
      const add = run(["ssh-add", key], {
        env: { SSH_AUTH_SOCK: sock, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: "force", DISPLAY: "none" },
      });
      expect(add.code).toBe(0);
      const viaPriv = await ok(["plugin", "sign", src, "--key", key], { SSH_AUTH_SOCK: sock });
      const viaPub = await ok(["plugin", "sign", src, "--key", `${key}.pub`], { SSH_AUTH_SOCK: sock });
      expect(viaPub.fingerprint).toBe(viaPriv.fingerprint);
      writeFileSync(join(w.root, "allowed"), `me@example ${readFileSync(`${key}.pub`, "utf8").trim()}\n`);
      const digest = (await gjc(["plugin", "digest", src])).stdout;
      expect(
        run(
          [
            SSH_KEYGEN!,
            "-Y",
            "verify",
            "-n",
            "gjc-plugin",
            "-f",
            join(w.root, "allowed"),
            "-I",
            "me@example",
            "-s",
            viaPub.file,
          ],
          { stdin: digest },
        ).code,
      ).toBe(0);
      // A key the agent does not hold.
      const other = keygen("other", "ed25519");
      const r = await gjc(["plugin", "sign", src, "--key", `${other}.pub`, "--json"], { SSH_AUTH_SOCK: sock });
      expect(r.exitCode).toBe(1);
      expect(r.json().error.message).toContain("does not hold");
    });
  });
}
