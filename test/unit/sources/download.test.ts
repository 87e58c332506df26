import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GJC_LIMITS } from "../../../src/bundle/limits.ts";
import { fetchSource } from "../../../src/sources/fetch-source.ts";
import { parseSourceSpec } from "../../../src/sources/parse-spec.ts";
import type { FetchOptions, NetworkOverrides } from "../../../src/sources/types.ts";
import { gzip, tar } from "../../helpers/tar.ts";
import { testCertificate } from "../../helpers/tls.ts";
import { area, expectEmpty, MANIFESTS, quietContext, refusal, type Area } from "./_support.ts";

/** A local https server with the committed self-signed certificate for tarballs.test. */
let server: ReturnType<typeof Bun.serve>;
let ca: string;
const hits: string[] = [];
const archive = gzip(tar([{ name: "pkg/gajae-plugin.json", data: '{"name":"remote"}' }]));
const bigPayload = crypto.getRandomValues(new Uint8Array(65536));
const big = gzip(
  tar([
    { name: "pkg/gajae-plugin.json", data: "{}" },
    ...Array.from({ length: 40 }, (_, i) => ({ name: `pkg/blob${i}.bin`, data: bigPayload.map((b) => b ^ i) })),
  ]),
);

beforeAll(() => {
  const tls = testCertificate("tarballs");
  ca = tls.cert;
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls,
    fetch(req) {
      const url = new URL(req.url);
      hits.push(`${req.headers.get("host")}${url.pathname}`);
      const port = server.port as number;
      switch (url.pathname) {
        case "/b.tgz":
          return new Response(archive);
        case "/big.tgz":
          return new Response(big);
        case "/same.tgz":
          return Response.redirect("/b.tgz", 302);
        case "/cross-host.tgz":
          return Response.redirect(`https://other.test:${port}/b.tgz`, 302);
        case "/cross-port.tgz":
          return Response.redirect(`https://tarballs.test:${port + 1}/b.tgz`, 301);
        case "/loop.tgz":
          return Response.redirect("/loop.tgz", 302);
        case "/signed.tgz":
        case "/huge-sig.tgz":
        case "/away-sig.tgz":
          return new Response(archive);
        case "/signed.tgz.sig":
          return new Response("-----BEGIN SSH SIGNATURE-----\n");
        case "/huge-sig.tgz.sig":
          return new Response(new Uint8Array(65 * 1024));
        case "/away-sig.tgz.sig":
          return Response.redirect(`https://other.test:${port}/signed.tgz.sig`, 302);
        default:
          return new Response("no", { status: 404 });
      }
    },
  });
});
afterAll(() => {
  server?.stop(true);
});

let a: Area;
afterEach(() => a?.cleanup());
const mapped = (): NetworkOverrides => ({
  ca,
  resolveAddresses: async (url) => {
    if (["tarballs.test", "other.test", "wrong.test"].includes(url.hostname)) return ["127.0.0.1"];
    throw new Error(`unexpected host ${url.hostname}`);
  },
});
const opts = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
  scratchRoot: a.scratch,
  limits: GJC_LIMITS,
  manifestNames: MANIFESTS,
  net: mapped(),
  ...extra,
});
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");
const at = (path: string, host = "tarballs.test") => `https://${host}:${server.port}${path}`;

/** A fresh area per fetch; a test that fetches twice would otherwise leave the first one behind. */
function freshArea(): Area {
  a?.cleanup();
  a = area();
  return a;
}

async function download(url: string, extra: Partial<FetchOptions> = {}) {
  freshArea();
  const ctx = quietContext(a.root);
  return fetchSource(ctx, parseSourceSpec(url, ctx), opts(extra));
}
async function refusedDownload(url: string, code: string, exit: number, extra: Partial<FetchOptions> = {}) {
  freshArea();
  const ctx = quietContext(a.root);
  const e = await refusal(fetchSource(ctx, parseSourceSpec(url, ctx), opts(extra)), code, exit);
  expectEmpty(a.scratch);
  return e;
}

describe("https tarballs", () => {
  test("downloads from the checked address with the name kept for SNI and Host", async () => {
    const got = await download(at("/b.tgz"), { expectedSha256: sha256(archive) });
    expect(JSON.parse(readFileSync(join(got.dir, "gajae-plugin.json"), "utf8")).name).toBe("remote");
    expect(got.record).toEqual({ kind: "tarball", uri: at("/b.tgz"), sha256: sha256(archive) });
    expect(got.identity).toBe(`tarball:${at("/b.tgz")}`);
    // The archive, then the detached signature a publisher may put beside it (404 here: none).
    expect(hits.slice(-2)).toEqual([`tarballs.test:${server.port}/b.tgz`, `tarballs.test:${server.port}/b.tgz.sig`]);
    expect(got.signature).toBeUndefined();
    await got.cleanup();
    expectEmpty(a.scratch);
  });

  test("proxy variables in the environment cannot reroute the download", async () => {
    const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, https_proxy: process.env.https_proxy };
    process.env.HTTPS_PROXY = "http://127.0.0.1:9";
    process.env.https_proxy = "http://127.0.0.1:9";
    try {
      const got = await download(at("/b.tgz"));
      await got.cleanup();
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });

  test("a signature published beside the archive (<url>.sig) comes with it, under the same rules and a small budget", async () => {
    const got = await download(at("/signed.tgz"));
    expect(got.signature).toEqual({ text: "-----BEGIN SSH SIGNATURE-----\n", label: `${at("/signed.tgz")}.sig` });
    await got.cleanup();
    const ctx = quietContext(freshArea().root);
    await expect(fetchSource(ctx, parseSourceSpec(at("/huge-sig.tgz"), ctx), opts())).rejects.toThrow();
    expectEmpty(a.scratch);
    freshArea();
    await refusal(fetchSource(ctx, parseSourceSpec(at("/away-sig.tgz"), ctx), opts()), "security_policy", 3);
  });

  test("same-origin redirects are followed", async () => {
    const got = await download(at("/same.tgz"));
    expect(hits.slice(-3)).toEqual([
      `tarballs.test:${server.port}/same.tgz`,
      `tarballs.test:${server.port}/b.tgz`,
      `tarballs.test:${server.port}/same.tgz.sig`,
    ]);
    await got.cleanup();
  });

  test("a redirect to another host or port is refused before it is followed", async () => {
    const before = hits.length;
    await refusedDownload(at("/cross-host.tgz"), "security_policy", 3);
    await refusedDownload(at("/cross-port.tgz"), "security_policy", 3);
    expect(hits.slice(before)).toEqual([
      `tarballs.test:${server.port}/cross-host.tgz`,
      `tarballs.test:${server.port}/cross-port.tgz`,
    ]);
  });

  test("redirect loops, HTTP errors and wrong certificates are unreachable", async () => {
    await refusedDownload(at("/loop.tgz"), "source_unreachable", 4);
    const e = await refusedDownload(at("/missing.tgz"), "source_unreachable", 4);
    expect(e.details).toEqual({ status: 404 });
    await refusedDownload(at("/b.tgz", "wrong.test"), "source_unreachable", 4);
    await refusedDownload(at("/b.tgz"), "source_unreachable", 4, { net: { ...mapped(), ca: undefined } });
  });

  test("a hash mismatch writes nothing", async () => {
    await refusedDownload(at("/b.tgz"), "hash_mismatch", 3, { expectedSha256: "f".repeat(64) });
  });

  test("large downloads report progress; the byte budget stops an oversized one", async () => {
    const lines: string[] = [];
    const got = await download(at("/big.tgz"), { onProgress: (m) => lines.push(m) });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toContain(`Downloading ${at("/big.tgz")}`);
    expect(lines.at(-1)).toContain("MiB of");
    await got.cleanup();
    const e = await refusedDownload(at("/big.tgz"), "source_too_large", 1, {
      limits: { ...GJC_LIMITS, maxFiles: 8, maxTotalBytes: 256 * 1024 },
    });
    expect(e.details).toEqual({ limit: "archive_bytes" });
  });
});

describe("https tarballs under the real URL policy (refused before connecting)", () => {
  test("loopback literals and localhost names are refused without a request", async () => {
    const before = hits.length;
    await refusedDownload(`https://127.0.0.1:${server.port}/b.tgz`, "security_policy", 3, { net: { ca } });
    await refusedDownload(`https://localhost:${server.port}/b.tgz`, "security_policy", 3, { net: { ca } });
    await refusedDownload(`https://[::1]:${server.port}/b.tgz`, "security_policy", 3, { net: { ca } });
    expect(hits.length).toBe(before);
  });

  test("a public name whose DNS answer is private is refused without a request", async () => {
    const before = hits.length;
    const e = await refusedDownload(`https://tarballs.example.com:${server.port}/b.tgz`, "security_policy", 3, {
      net: { ca, resolver: async () => ["93.184.215.14", "127.0.0.1"] },
    });
    expect(e.message).toContain("denied address");
    expect(hits.length).toBe(before);
  });

  test("a name that does not resolve is unreachable", async () => {
    await refusedDownload(`https://tarballs.example.com/b.tgz`, "source_unreachable", 4, {
      net: {
        resolver: async () => {
          throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
        },
      },
    });
  });
});
