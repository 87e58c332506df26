// Regenerates the self-signed TLS certificates the tests serve https with
// (test/fixtures/tls/<name>.cert.pem + <name>.key.pem). The tests read these committed files,
// so running the suite needs no openssl; only this script does. Run it (with openssl on PATH)
// when a test needs a new name, or before the certificates expire (they are made for 100 years):
//
//   bun scripts/gen-test-certs.ts
//
// Each certificate is its own CA (a test passes it as `tls.ca`) and lists exactly the DNS names
// below as subjectAltName, so a name outside the list is a real certificate-name mismatch.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { TEST_CERTIFICATES } from "../test/helpers/tls.ts";

const dir = join(import.meta.dir, "..", "test", "fixtures", "tls");
mkdirSync(dir, { recursive: true });
for (const [name, sans] of Object.entries(TEST_CERTIFICATES)) {
  const r = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      join(dir, `${name}.key.pem`),
      "-out",
      join(dir, `${name}.cert.pem`),
      "-days",
      "36500",
      "-subj",
      `/CN=${sans[0]}`,
      "-addext",
      `subjectAltName=${sans.map((n) => `DNS:${n}`).join(",")}`,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`openssl failed for ${name}: ${r.stderr.toString()}`);
  console.error(`gen-test-certs: ${name} (${sans.join(", ")})`);
}
