import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The committed test certificates and the DNS names each one is valid for. Regenerate them with
 * `bun scripts/gen-test-certs.ts` (the only place openssl is needed); tests never run openssl.
 */
export const TEST_CERTIFICATES = {
  archives: ["archives.test"],
  tarballs: ["tarballs.test"],
  mcp: ["mcp.gjc.test", "other.gjc.test"],
} as const satisfies Record<string, readonly string[]>;

export type TestCertificateName = keyof typeof TEST_CERTIFICATES;

/** The PEM certificate (also the CA to trust) and key for one of the committed test certificates. */
export function testCertificate(name: TestCertificateName): { cert: string; key: string } {
  const dir = join(import.meta.dir, "..", "fixtures", "tls");
  return {
    cert: readFileSync(join(dir, `${name}.cert.pem`), "utf8"),
    key: readFileSync(join(dir, `${name}.key.pem`), "utf8"),
  };
}
