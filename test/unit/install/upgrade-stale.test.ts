import { expect, test } from "bun:test";
import { isGjcError } from "../../../src/core/errors.ts";
import { loadScopeRegistry } from "../../../src/install/api.ts";
import { compileForInstall } from "../../../src/families/gjc/compile-for-install.ts";
import { setGjcEnabled } from "../../../src/install/enablement.ts";
import { installCompiled, installGjcBundle } from "../../../src/install/install.ts";
import { sandboxPerTest } from "../../helpers/sandbox.ts";
import { snapshotTree, writeTree } from "../../helpers/tmp.ts";

const box = sandboxPerTest("gjc-stale-");

test("upgrade stops with stale_baseline when the entry changed after it was read, and changes nothing", async () => {
  const t = box();
  const ctx = t.context({ cwd: t.root });
  const src = t.write("src", {
    "gajae-plugin.json": {
      kind: "gajae-code-plugin",
      name: "st",
      version: "1.0.0",
      tools: [
        { name: "st_a", path: "tools/a.ts" },
        { name: "st_b", path: "tools/b.ts" },
      ],
    },
    "tools/a.ts": "export default 1;\n",
    "tools/b.ts": "export default 2;\n",
  });
  const fetched = { dir: src, record: { kind: "path", uri: src }, display: src };
  expect((await installGjcBundle(ctx, fetched, { scope: "user" })).status).toBe("installed");
  const baseline = loadScopeRegistry(ctx, "user").registry.plugins[0];

  // Another command changes the entry between the upgrade's read and its lock.
  await setGjcEnabled(ctx, "st", "user", false, "tool:st_b");
  writeTree(src, { "tools/a.ts": "export default 3;\n" });
  const { bundle, warnings } = await compileForInstall(src);
  const before = snapshotTree(t.root);
  let code = "";
  try {
    await installCompiled(ctx, bundle, warnings, fetched, { scope: "user", baseline });
  } catch (error) {
    code = isGjcError(error) ? error.code : String(error);
  }
  expect(code).toBe("stale_baseline");
  expect(snapshotTree(t.root)).toEqual(before);
});
