import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkC2FilesBeforeStart } from "../../../src/c2store/check-before-start.ts";
import { FILES_STAMP_FILE } from "../../../src/c2store/files-stamp.ts";
import { findInstalledC2 } from "../../../src/c2store/records.ts";
import { c2Home, refusal, runtimeBundle, type C2Home } from "./_bundles.ts";

const homes: C2Home[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

async function installed(): Promise<{ h: C2Home; id: string; bundle: string; count: number }> {
  const h = c2Home();
  homes.push(h);
  const r = await h.install(
    h.bundle("demo", runtimeBundle("demo", "1.0.0", { extra: { "lib/a.js": "a()\n", "lib/b.js": "b()\n" } })),
  );
  const record = JSON.parse(readFileSync(join(h.data, "plugins", r.c2.id, "installed-plugin.json"), "utf8"));
  return { h, id: r.c2.id, bundle: join(h.data, "plugins", r.c2.id, "bundle"), count: record.files.length };
}

describe("the file check before a process start compares stats, re-hashing what changed", () => {
  test("the first start hashes every file and stamps them; an untouched bundle is not read again", async () => {
    const { h, id, count } = await installed();
    expect(count).toBeGreaterThan(3);
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: count });
    expect(statSync(join(h.data, "plugins", id, FILES_STAMP_FILE)).isFile()).toBe(true);
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: 0 });
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: 0 });
  });

  test("an edit with the same size and a restored modification time is re-hashed (ctime) and refused", async () => {
    const { h, id, bundle } = await installed();
    const file = join(bundle, "lib/a.js");
    // A whole-second time, so that restoring it is exact to the nanosecond.
    const when = new Date("2026-01-02T03:04:05Z");
    utimesSync(file, when, when);
    await checkC2FilesBeforeStart(h.ctx, id);
    const before = statSync(file, { bigint: true });
    writeFileSync(file, "x()\n");
    utimesSync(file, when, when);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
    expect(statSync(file, { bigint: true }).size).toBe(before.size);
    const r = await refusal(() => checkC2FilesBeforeStart(h.ctx, id));
    expect(r).toMatchObject({ code: "runtime_mismatch", exit: 3 });
    expect(r.message).toContain("lib/a.js");
    expect(findInstalledC2(h.ctx, "demo")!.quarantine).toMatchObject({
      reason: "runtime_mismatch",
      files: ["changed:lib/a.js"],
    });
  });

  test("only the touched file is re-hashed; a touch without a change passes and is stamped again", async () => {
    const { h, id, bundle } = await installed();
    await checkC2FilesBeforeStart(h.ctx, id);
    const file = join(bundle, "lib/b.js");
    writeFileSync(file, readFileSync(file));
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: 1 });
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: 0 });
  });

  test("a missing, torn or foreign stamp means a full hash; an extra file is caught without one", async () => {
    const { h, id, bundle, count } = await installed();
    await checkC2FilesBeforeStart(h.ctx, id);
    const stamp = join(h.data, "plugins", id, FILES_STAMP_FILE);
    writeFileSync(stamp, readFileSync(stamp, "utf8").replace(/"files":\{/, '"files":{"zz":"1",'));
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: count });
    // A rewritten record (here: its stamp no longer matches) is another record.
    const rec = join(h.data, "plugins", id, "installed-plugin.json");
    writeFileSync(rec, readFileSync(rec));
    expect(await checkC2FilesBeforeStart(h.ctx, id)).toEqual({ hashed: count });
    writeFileSync(join(bundle, "extra.js"), "");
    const r = await refusal(() => checkC2FilesBeforeStart(h.ctx, id));
    expect(r).toMatchObject({ code: "runtime_mismatch", exit: 3 });
    expect(r.message).toContain("extra.js");
  });
});
