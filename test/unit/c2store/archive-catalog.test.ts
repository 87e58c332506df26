import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installC2FromCatalog } from "../../../src/c2store/catalog-install.ts";
import type { NetworkOverrides } from "../../../src/sources/types.ts";
import { gzip, tar } from "../../helpers/tar.ts";
import { testCertificate } from "../../helpers/tls.ts";
import { snapshotTree } from "../../helpers/tmp.ts";
import { c2Home, refusal, skillsBundle, type C2Home } from "./_bundles.ts";

/** An https server (the committed self-signed certificate for archives.test) serving one bundle archive. */
let server: ReturnType<typeof Bun.serve>;
let ca: string;
const files = skillsBundle("remote", "1.0.0") as Record<string, unknown>;
const archive = gzip(
  tar([
    { name: "plugin.json", data: JSON.stringify(files["plugin.json"]) },
    { name: "skills/take-notes/SKILL.md", data: files["skills/take-notes/SKILL.md"] as string },
  ]),
);
// The same bundle packed as one top folder: not a C2 bundle archive (plugin.json is not at its root).
const nested = gzip(
  tar([
    { name: "remote/plugin.json", data: JSON.stringify(files["plugin.json"]) },
    { name: "remote/skills/take-notes/SKILL.md", data: files["skills/take-notes/SKILL.md"] as string },
  ]),
);
const nestedSha256 = new Bun.CryptoHasher("sha256").update(nested).digest("hex");
const sha256 = new Bun.CryptoHasher("sha256").update(archive).digest("hex");

beforeAll(() => {
  const tls = testCertificate("archives");
  ca = tls.cert;
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls,
    fetch: (req) =>
      new URL(req.url).pathname === "/remote.tgz"
        ? new Response(archive)
        : new URL(req.url).pathname === "/nested.tgz"
          ? new Response(nested)
          : new Response("no", { status: 404 }),
  });
});
afterAll(() => {
  server?.stop(true);
});

const homes: C2Home[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));
const net = (): NetworkOverrides => ({
  ca,
  resolveAddresses: async (url) =>
    url.hostname === "archives.test" ? ["127.0.0.1"] : Promise.reject(new Error(url.hostname)),
});

test("an archive catalog entry is downloaded over https, its sha256 verified, and installed", async () => {
  const h = c2Home();
  homes.push(h);
  const url = `https://archives.test:${server.port}/remote.tgz`;
  mkdirSync(join(h.root, "cat"));
  const catalog = (digest: string) =>
    writeFileSync(
      join(h.root, "cat", "marketplace.json"),
      JSON.stringify({
        standardVersion: "1.0.0",
        name: "remote-cat",
        plugins: [{ name: "remote", version: "1.0.0", source: { kind: "archive", url, sha256: digest } }],
      }),
    );

  catalog("0".repeat(64));
  const refused = await refusal(() =>
    installC2FromCatalog(h.ctx, { entryName: "remote", catalogPath: join(h.root, "cat"), net: net() }),
  );
  expect(refused).toMatchObject({ code: "hash_mismatch", exit: 3 });
  expect(snapshotTree(h.data)).toEqual({});

  // An archive whose plugin.json sits in a folder is refused, naming the nested manifest.
  writeFileSync(
    join(h.root, "cat", "marketplace.json"),
    JSON.stringify({
      standardVersion: "1.0.0",
      name: "remote-cat",
      plugins: [
        {
          name: "remote",
          version: "1.0.0",
          source: { kind: "archive", url: url.replace("remote.tgz", "nested.tgz"), sha256: nestedSha256 },
        },
      ],
    }),
  );
  const nestedRefusal = await refusal(() =>
    installC2FromCatalog(h.ctx, { entryName: "remote", catalogPath: join(h.root, "cat"), net: net() }),
  );
  expect(nestedRefusal).toMatchObject({
    code: "nested_manifest",
    exit: 1,
    message: expect.stringContaining("remote/plugin.json"),
  });
  expect(snapshotTree(h.data)).toEqual({});

  catalog(sha256);
  const r = await installC2FromCatalog(h.ctx, { entryName: "remote", catalogPath: join(h.root, "cat"), net: net() });
  expect(r).toMatchObject({
    status: "installed",
    name: "remote",
    source: { kind: "tarball", display: "Marketplace · remote-cat" },
  });
  expect(
    readFileSync(join(h.data, "plugins", r.c2.id, "bundle", "skills", "take-notes", "SKILL.md"), "utf8"),
  ).toContain("take-notes");
});
