// Signed bundles, side by side in one run (compiled binary): the same content installed unsigned
// (the baseline) and signed by a trusted Ed25519 key (ours).
//   install of a small bundle (3 files)              signed vs unsigned   (at most +2 ms)
//   install of the 2,000-file / 20 MiB bundle         signed vs unsigned   (≤1.05x)
// Each measured install starts from an empty scope, flushed before the clock starts.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeKey } from "../../test/helpers/ssh-keys.ts";
import { bigToolBundle, setup, toolBundle } from "./_fixtures.ts";
import { gjcBinary, printTable, timePair } from "./_lib.ts";

const gjc = await gjcBinary();
const runs = Number(process.env.BENCH_RUNS ?? 15);
const root = mkdtempSync(join(tmpdir(), "gjc-signing-bench-"));

let ok = false;
try {
  const env = { HOME: root, GJC_C2_DATA_DIR: join(root, "c2"), XDG_CONFIG_HOME: join(root, "config") };
  const key = makeKey("ed25519", "bench@example").write(root, "key");
  setup(gjc, ["signers", "add", "bench@example", `${key}.pub`], { env, cwd: root });

  /** Two copies of one bundle, the second signed; the time of installing each into an empty scope. */
  const pair = async (make: (dir: string) => string, label: string, n: number) => {
    const unsigned = make(join(root, `${label}-unsigned`));
    const signed = join(root, `${label}-signed`);
    cpSync(unsigned, signed, { recursive: true });
    setup(gjc, ["plugin", "sign", signed, "--key", key], { env, cwd: root });
    const scopeA = join(root, `${label}-scope-a`);
    const scopeB = join(root, `${label}-scope-b`);
    return timePair([gjc, "plugin", "install", signed, "--user"], [gjc, "plugin", "install", unsigned, "--user"], {
      runs: n,
      env: { ...env, GJC_USER_DIR: scopeA },
      cwd: root,
      before: ["sh", "-c", `rm -rf "${scopeA}" && sync`],
      baselineOptions: { env: { ...env, GJC_USER_DIR: scopeB }, before: ["sh", "-c", `rm -rf "${scopeB}" && sync`] },
    });
  };
  const [small, smallBase] = await pair((d) => toolBundle(d, "small", 2, () => 512, 1), "small", runs);
  const [big, bigBase] = await pair(bigToolBundle, "big", Math.max(5, Math.floor(runs / 3)));
  const addedMs = small.medianMs - smallBase.medianMs;
  const tableOk = printTable("Signed bundles (compiled binary)", [
    {
      name: "install small bundle, signed",
      oursMs: small.medianMs,
      baselineMs: smallBase.medianMs,
      baseline: "unsigned",
      note: `${addedMs >= 0 ? "+" : ""}${addedMs.toFixed(2)} ms (target ≤ +2 ms ${addedMs <= 2 ? "ok" : "MISSED"})`,
    },
    {
      name: "install 2,000 files / 20 MiB, signed",
      oursMs: big.medianMs,
      baselineMs: bigBase.medianMs,
      baseline: "unsigned",
      limit: 1.05,
    },
  ]);
  ok = tableOk && addedMs <= 2;
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
