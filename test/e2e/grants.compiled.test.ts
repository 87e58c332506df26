/** The grant verbs from the compiled binary: allow, permissions, the audit finding, a refusal. */
import { beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { sandboxPerTest } from "../helpers/sandbox.ts";
import { writeC2ProcessBundle, writeGjcServerBundle } from "./grants-fixture.ts";

let binary: string;
beforeAll(async () => {
  binary = await compiledBinary();
}, 240_000);
const box = sandboxPerTest("gjc-grants-bin-");

test("allow, permissions and audit work the same from the compiled binary", async () => {
  const s = box();
  const gjc = (args: string[]) => s.gjc(args, { binary });
  expect((await gjc(["plugin", "install", writeGjcServerBundle(s), "--user"])).exitCode).toBe(0);
  expect((await gjc(["plugin", "install", writeC2ProcessBundle(s), "--user"])).exitCode).toBe(0);
  expect(
    (
      await gjc([
        "plugin",
        "allow",
        "notes",
        "--server",
        "notes",
        "--net",
        "127.0.0.1:9",
        "--read",
        "~/.aws",
        "--force",
      ])
    ).exitCode,
  ).toBe(0);
  expect((await gjc(["plugin", "allow", "kit", "--runtime", "--project", "write"])).exitCode).toBe(0);
  const p = (await gjc(["plugin", "permissions", "notes", "--json"])).json();
  expect(p.processes[0].profile.net).toEqual([{ host: "127.0.0.1", port: 9 }]);
  expect(
    (await gjc(["plugin", "permissions", "kit", "--json"]))
      .json()
      .processes.find((x: { process: { kind: string } }) => x.process.kind === "runtime").profile.write,
  ).toEqual([s.project]);
  const sarif = JSON.parse((await gjc(["plugin", "audit", "notes", "--sarif"])).stdout);
  expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain("sandbox-grant-sensitive");
  const refused = await gjc(["plugin", "allow", "notes", "--read", join(s.home, ".ssh")]);
  expect(refused.exitCode).toBe(3);
  expect(refused.stderr).toContain("sensitive_grant");
});
