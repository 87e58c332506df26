import { afterAll, describe, expect, test } from "bun:test";
import { KNOWN_UPWARD, LAYERS, layerReport } from "../../../scripts/layers.ts";
import { tempDir, writeTree } from "../../helpers/tmp.ts";

const repo = new URL("../../..", import.meta.url).pathname;
const report = await layerReport(repo);

describe("the layers of src/ (DESIGN.md §3)", () => {
  test("every folder of src/ stands on a row of the table", () => {
    expect(report.unplaced).toEqual([]);
  });

  test("no folder imports one above it or a peer, beyond the arrows listed as known", () => {
    const found = report.upward.map((a) => `${a.from} -> ${a.to}`);
    const unexpected = report.upward.filter((a) => !KNOWN_UPWARD.includes(`${a.from} -> ${a.to}`));
    expect(unexpected.map((a) => `${a.from} -> ${a.to}\n  ${a.via.join("\n  ")}`)).toEqual([]);
    // An arrow that is gone leaves the list, so the list can only shrink.
    expect(KNOWN_UPWARD.filter((k) => !found.includes(k))).toEqual([]);
  });

  test("without the known arrows, no two folders import each other, directly or around a loop", async () => {
    const { arrowsOf, folderCycles, sourceFiles } = await import("../../../scripts/layers.ts");
    const { arrows } = arrowsOf(await sourceFiles(repo));
    expect(folderCycles(arrows.filter((a) => !KNOWN_UPWARD.includes(`${a.from} -> ${a.to}`)))).toEqual([]);
  });

  test("the GJC and C2 families never import each other", () => {
    expect(report.apart).toEqual([]);
  });

  test("outside cli/, no code reads process.env or process.argv, exits or prints", () => {
    expect(report.processGlobals).toEqual([]);
  });
});

describe("the check itself", () => {
  const dir = tempDir("gjc-layers-");
  afterAll(() => dir.cleanup());
  const [top, bottom] = [LAYERS[1][0], LAYERS[LAYERS.length - 1][0]];
  writeTree(dir.path, {
    [`src/${bottom}/low.ts`]: `import type { High } from "../${top}/high.ts";\nexport const low = 1;\nconsole.log(low);\n`,
    [`src/${top}/high.ts`]: `export { low } from "../${bottom}/low.ts";\nexport type High = number;\n`,
    "src/families/gjc/a.ts": `const c2 = await import("../c2/b.ts");\n`,
    "src/families/c2/b.ts": "export const b = 1;\n",
    "src/newfolder/x.ts": `// process.env.HOME in a comment is no read\nexport const x = 1;\n`,
  });

  test("finds an upward arrow, the cycle it closes, a family pair, a print and an unplaced folder", async () => {
    const found = await layerReport(dir.path);
    expect(found.upward.map((a) => `${a.from} -> ${a.to}`)).toEqual([`${bottom} -> ${top}`]);
    expect(found.cycles).toEqual([[top, bottom].sort()]);
    expect(found.apart).toEqual(["src/families/gjc/a.ts -> src/families/c2/b.ts"]);
    expect(found.processGlobals).toEqual([`src/${bottom}/low.ts:3`]);
    expect(found.unplaced).toEqual(["newfolder"]);
  });
});
