/**
 * OpenSSH key files made in the test itself (node:crypto keys written in the openssh-key-v1
 * and .pub formats), so the main suite needs no ssh-keygen; test/interop/ checks the same code
 * against the real one.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { WireWriter } from "../../src/signing/ssh-wire.ts";

export type TestKeyType = "ed25519" | "ecdsa" | "rsa";

export interface TestKey {
  type: TestKeyType;
  /** `type base64 comment` */
  publicLine: string;
  /** The armored unencrypted private key. */
  privatePem: string;
  /** Writes `<dir>/<name>` and `<dir>/<name>.pub`; returns the private key's path. */
  write(dir: string, name: string): string;
}

const fromB64url = (s: string) => new Uint8Array(Buffer.from(s, "base64url"));

export function makeKey(type: TestKeyType = "ed25519", comment = "test@example"): TestKey {
  let pub: Uint8Array;
  let priv: WireWriter;
  let typeName: string;
  if (type === "ed25519") {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const j = privateKey.export({ format: "jwk" });
    const x = fromB64url(publicKey.export({ format: "jwk" }).x!);
    typeName = "ssh-ed25519";
    pub = new WireWriter().string(typeName).string(x).bytes();
    const seedPub = new Uint8Array(64);
    seedPub.set(fromB64url(j.d!));
    seedPub.set(x, 32);
    priv = new WireWriter().string(typeName).string(x).string(seedPub);
  } else if (type === "ecdsa") {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const j = privateKey.export({ format: "jwk" });
    const q = new Uint8Array([4, ...fromB64url(j.x!), ...fromB64url(j.y!)]);
    typeName = "ecdsa-sha2-nistp256";
    pub = new WireWriter().string(typeName).string("nistp256").string(q).bytes();
    priv = new WireWriter().string(typeName).string("nistp256").string(q).mpint(fromB64url(j.d!));
  } else {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const j = privateKey.export({ format: "jwk" });
    typeName = "ssh-rsa";
    pub = new WireWriter().string(typeName).mpint(fromB64url(j.e!)).mpint(fromB64url(j.n!)).bytes();
    priv = new WireWriter()
      .string(typeName)
      .mpint(fromB64url(j.n!))
      .mpint(fromB64url(j.e!))
      .mpint(fromB64url(j.d!))
      .mpint(fromB64url(j.qi!))
      .mpint(fromB64url(j.p!))
      .mpint(fromB64url(j.q!));
  }
  const check = 0x12345678;
  const body = new WireWriter().uint32(check).uint32(check).raw(priv.string(comment).bytes());
  let section = body.bytes();
  const pad = (8 - (section.length % 8)) % 8;
  section = new WireWriter()
    .raw(section)
    .raw(Uint8Array.from({ length: pad }, (_, i) => i + 1))
    .bytes();
  const container = new WireWriter()
    .raw("openssh-key-v1\0")
    .string("none")
    .string("none")
    .string("")
    .uint32(1)
    .string(pub)
    .string(section)
    .bytes();
  const b64 = Buffer.from(container).toString("base64").replace(/.{70}/g, "$&\n");
  const privatePem = `-----BEGIN OPENSSH PRIVATE KEY-----\n${b64.trimEnd()}\n-----END OPENSSH PRIVATE KEY-----\n`;
  const publicLine = `${typeName} ${Buffer.from(pub).toString("base64")} ${comment}`;
  return {
    type,
    publicLine,
    privatePem,
    write(dir, name) {
      const path = join(dir, name);
      writeFileSync(path, privatePem, { mode: 0o600 });
      writeFileSync(`${path}.pub`, `${publicLine}\n`);
      return path;
    },
  };
}

/** An OpenSSH user certificate for `subject`'s key, signed by `ca` (PROTOCOL.certkeys layout). */
export async function makeCertificate(
  ca: TestKey,
  subject: TestKey,
  o: { principals: string[]; validAfter?: bigint; validBefore?: bigint; certType?: number; criticalOptions?: string[] },
): Promise<string> {
  const { parsePrivateKey } = await import("../../src/signing/private-key.ts");
  const { parsePublicKeyLine } = await import("../../src/signing/ssh-keys.ts");
  const { WireReader } = await import("../../src/signing/ssh-wire.ts");
  const key = parsePublicKeyLine(subject.publicLine).key;
  const caKey = parsePrivateKey(ca.privatePem);
  const fields = new WireReader(key.blob);
  const plain = fields.text();
  const u64 = (w: WireWriter, v: bigint) => w.uint32(Number(v >> 32n)).uint32(Number(v & 0xffffffffn));
  const w = new WireWriter().string(`${plain}-cert-v01@openssh.com`).string(new Uint8Array(32).fill(7));
  w.raw(key.blob.subarray(4 + plain.length));
  u64(w, 1n)
    .uint32(o.certType ?? 1)
    .string("test-cert");
  const principals = new WireWriter();
  for (const p of o.principals) principals.string(p);
  w.string(principals.bytes());
  u64(w, o.validAfter ?? 0n);
  u64(w, o.validBefore ?? 0xffffffffffffffffn);
  const critical = new WireWriter();
  for (const c of o.criticalOptions ?? []) critical.string(c).string(new WireWriter().string("x").bytes());
  w.string(critical.bytes()).string(new Uint8Array(0)).string(new Uint8Array(0)).string(caKey.publicKey.blob);
  const signed = w.bytes();
  const signature = await caKey.sign(signed);
  return `${plain}-cert-v01@openssh.com ${Buffer.from(new WireWriter().raw(signed).string(signature).bytes()).toString("base64")}`;
}
