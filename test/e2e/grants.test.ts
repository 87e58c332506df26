import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxPerTest, type Sandbox } from "../helpers/sandbox.ts";
import { snapshotTree } from "../helpers/tmp.ts";
import { writeC2ProcessBundle, writeGjcServerBundle } from "./grants-fixture.ts";

const box = sandboxPerTest("gjc-grants-");

async function withBundles(): Promise<Sandbox> {
  const s = box();
  expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s), "--user"])).exitCode).toBe(0);
  expect((await s.gjc(["plugin", "install", writeC2ProcessBundle(s), "--user"])).exitCode).toBe(0);
  return s;
}

const permissions = async (s: Sandbox, name: string) => {
  const r = await s.gjc(["plugin", "permissions", name, "--json"]);
  expect(r.exitCode).toBe(0);
  return r.json();
};

describe("gjc plugin allow and permissions", () => {
  test("GJC: bundle-wide and per-server grants, shown per process, idempotent, taken back by --reset", async () => {
    const s = await withBundles();
    mkdirSync(join(s.home, "notes"));
    const a = await s.gjc([
      "plugin",
      "allow",
      "notes",
      "--read",
      "~/notes",
      "--read",
      "./data",
      "--write",
      "~/notes",
      "--net",
      "API.example.com.:443",
      "--json",
    ]);
    expect(a.exitCode).toBe(0);
    const doc = a.json();
    expect(doc).toMatchObject({
      status: "granted",
      bundle: { name: "notes", family: "gjc", scope: "user" },
      process: null,
    });
    expect(doc.grants).toEqual({
      read: [join(s.home, "notes"), join(s.project, "data")].sort(),
      write: [join(s.home, "notes")],
      net: [{ host: "api.example.com", port: 443 }],
      project: null,
    });
    expect(doc.warnings.map((w: { code: string }) => w.code)).toEqual(["path_missing"]);

    expect(
      (await s.gjc(["plugin", "allow", "notes", "--server", "notes", "--net", "[::1]:8080", "--project", "read"]))
        .exitCode,
    ).toBe(0);
    const again = await s.gjc(["plugin", "allow", "notes", "--net", "api.example.com:443", "--json"]);
    expect(again.json().status).toBe("unchanged");

    const p = await permissions(s, "notes");
    expect(p.grantsFile.state).toBe("signed");
    expect(p.grants.net).toEqual([{ host: "api.example.com", port: 443 }]);
    const server = p.processes.find((x: { process: { id?: string } }) => x.process.id === "notes");
    expect(server.grants).toEqual({ read: [], write: [], net: [{ host: "::1", port: 8080 }], project: "read" });
    expect(server.profile.read).toContain(p.bundle.root);
    expect(server.profile.read).toContain(s.project);
    expect(server.profile.write).toEqual([join(s.home, "notes")]);
    expect(server.profile.net).toEqual([
      { host: "::1", port: 8080 },
      { host: "api.example.com", port: 443 },
    ]);

    const human = await s.gjc(["plugin", "permissions", "notes"]);
    expect(human.stdout).toContain("server notes (own grants: net [::1]:8080; project read)");

    const resetServer = await s.gjc(["plugin", "allow", "notes", "--server", "notes", "--reset", "--json"]);
    expect(resetServer.json()).toMatchObject({ status: "reset", process: { kind: "server", id: "notes" } });
    expect((await permissions(s, "notes")).grants.net).toHaveLength(1);
    expect((await s.gjc(["plugin", "allow", "notes", "--reset", "--json"])).json().status).toBe("reset");
    const cleared = await permissions(s, "notes");
    expect(cleared.grants).toEqual({ read: [], write: [], net: [], project: null });
    expect(cleared.processes[0].grants.net).toEqual([]);
  });

  test("C2: the runtime, a language server and an mcp.json server are granted one by one", async () => {
    const s = await withBundles();
    expect((await s.gjc(["plugin", "allow", "kit", "--runtime", "--project", "write"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "allow", "kit", "--lsp", "ls", "--net", "127.0.0.1"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "allow", "kit", "--server", "srv", "--net", "example.org:80"])).exitCode).toBe(0);
    const p = await permissions(s, "kit");
    expect(p.bundle).toMatchObject({ name: "kit", family: "c2", scope: "user" });
    expect(p.grantsFile.path).toBe(join(s.c2, "grants.json"));
    const by = (kind: string) => p.processes.find((x: { process: { kind: string } }) => x.process.kind === kind);
    expect(by("runtime").profile.write).toEqual([s.project]);
    expect(by("lsp").profile.net).toEqual([{ host: "127.0.0.1" }]);
    expect(by("server").profile.net).toEqual([{ host: "example.org", port: 80 }]);
    expect(by("server").profile.write).toEqual([]);
  });

  test("--reset of the whole bundle also takes back grants made for one process only", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "kit", "--lsp", "ls", "--net", "example.org"]);
    const r = await s.gjc(["plugin", "allow", "kit", "--reset", "--json"]);
    expect(r.json().status).toBe("reset");
    expect(
      (await permissions(s, "kit")).processes.every((p: { grants: { net: unknown[] } }) => p.grants.net.length === 0),
    ).toBe(true);
    expect((await s.gjc(["plugin", "allow", "kit", "--reset", "--json"])).json().status).toBe("unchanged");
  });

  test("a name in both GJC scopes: allow asks for --user or --scope project, and each scope keeps its own grants", async () => {
    const s = box();
    expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s, "src/u"), "--user"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s, "src/p", "notes"), "--project"])).exitCode).toBe(
      0,
    );
    const ambiguous = await s.gjc(["plugin", "allow", "notes", "--net", "example.org", "--json"]);
    expect(ambiguous.exitCode).toBe(2);
    const error = JSON.parse(ambiguous.stderr.trim().split("\n").at(-1)!).error;
    expect(error.code).toBe("ambiguous_plugin");
    expect(error.hint).toContain("--scope project");
    expect((await s.gjc(["plugin", "allow", "notes", "--scope", "project", "--net", "project.example"])).exitCode).toBe(
      0,
    );
    expect((await s.gjc(["plugin", "allow", "notes", "--user", "--net", "user.example"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "permissions", "notes", "--project", "--json"])).json().grants.net).toEqual([
      { host: "project.example" },
    ]);
    expect((await s.gjc(["plugin", "permissions", "notes", "--user", "--json"])).json().grants.net).toEqual([
      { host: "user.example" },
    ]);
    expect(existsSync(join(s.project, ".gjc", "gjc-plugins", "grants.json"))).toBe(true);
  });

  test("uninstall takes back the bundle's grants, so a bundle installed later under the name starts from the default profile", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--net", "example.org"]);
    await s.gjc(["plugin", "allow", "kit", "--runtime", "--net", "example.org"]);
    await s.gjc(["plugin", "allow", "kit", "--net", "example.com"]);
    const dry = await s.gjc(["plugin", "uninstall", "notes", "--user", "--dry-run"]);
    expect(dry.exitCode).toBe(0);
    expect(readFileSync(join(s.user, "grants.json"), "utf8")).toContain("gjc:notes");
    expect((await s.gjc(["plugin", "uninstall", "notes", "--user"])).exitCode).toBe(0);
    expect((await s.gjc(["plugin", "uninstall", "kit", "--user"])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(s.user, "grants.json"), "utf8")).bundles).toEqual({});
    expect(JSON.parse(readFileSync(join(s.c2, "grants.json"), "utf8")).bundles).toEqual({});
    expect((await s.gjc(["plugin", "install", writeGjcServerBundle(s, "src/other-notes"), "--user"])).exitCode).toBe(0);
    expect((await permissions(s, "notes")).grants.net).toEqual([]);
  });

  test("a host without a port covers that host's port grants", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--net", "example.org:443", "--net", "example.org:80"]);
    const r = await s.gjc(["plugin", "allow", "notes", "--net", "example.org", "--json"]);
    expect(r.json().grants.net).toEqual([{ host: "example.org" }]);
  });
});

describe("refusals change nothing", () => {
  const refusals: [string, string[], string, number][] = [
    ["junk host", ["notes", "--net", "not a host"], "invalid_net_grant", 2],
    ["bare IPv6", ["notes", "--net", "::1:80"], "invalid_net_grant", 2],
    ["bad port", ["notes", "--net", "example.org:99999"], "invalid_net_grant", 2],
    ["port zero", ["notes", "--net", "example.org:0"], "invalid_net_grant", 2],
    ["a URL", ["notes", "--net", "https://example.org"], "invalid_net_grant", 2],
    ["wildcard", ["notes", "--net", "*.example.org"], "invalid_net_grant", 2],
    ["empty path", ["notes", "--read", ""], "invalid_path_grant", 2],
    ["the home", ["notes", "--read", "~"], "grant_too_broad", 3],
    ["the root", ["notes", "--write", "/"], "grant_too_broad", 3],
    ["~/.ssh", ["notes", "--read", "~/.ssh"], "sensitive_grant", 3],
    ["a key inside ~/.ssh", ["notes", "--read", "~/.ssh/id_ed25519"], "sensitive_grant", 3],
    ["~/.config, which holds gh's token", ["notes", "--read", "~/.config"], "sensitive_grant", 3],
    ["the state key", ["notes", "--read", "~/.gjc/state.key"], "sensitive_grant", 3],
    ["the C2 data directory", ["kit", "--write", "~/.codetwo"], "sensitive_grant", 3],
    ["an unknown server", ["notes", "--server", "nope", "--net", "example.org"], "unknown_process", 2],
    ["a runtime a GJC bundle lacks", ["notes", "--runtime", "--net", "example.org"], "unknown_process", 2],
    ["nothing to grant", ["notes"], "missing_argument", 2],
    ["reset with a grant", ["notes", "--reset", "--net", "example.org"], "invalid_option_value", 2],
    ["two selectors", ["kit", "--runtime", "--lsp", "ls", "--net", "example.org"], "invalid_option_value", 2],
    ["bad project access", ["notes", "--project", "all"], "invalid_option_value", 2],
    ["not installed", ["ghost", "--net", "example.org"], "not_installed", 1],
  ];
  for (const [label, args, code, exit] of refusals) {
    test(`${label}: ${code}, exit ${exit}`, async () => {
      const s = await withBundles();
      await s.gjc(["plugin", "allow", "notes", "--net", "kept.example:1"]);
      const before = snapshotTree(s.root);
      const r = await s.gjc(["plugin", "allow", ...args, "--json"]);
      expect(r.exitCode).toBe(exit);
      expect(JSON.parse(r.stderr.trim().split("\n").at(-1)!).error.code).toBe(code);
      expect(snapshotTree(s.root)).toEqual(before);
    });
  }

  test("a link to a sensitive place is judged by where it leads", async () => {
    const s = await withBundles();
    mkdirSync(join(s.home, ".ssh"));
    symlinkSync(join(s.home, ".ssh"), join(s.project, "keys"));
    const before = snapshotTree(s.root);
    const r = await s.gjc(["plugin", "allow", "notes", "--read", "./keys", "--json"]);
    expect(r.exitCode).toBe(3);
    const error = JSON.parse(r.stderr.trim().split("\n").at(-1)!).error;
    expect(error.code).toBe("sensitive_grant");
    expect(error.message).toContain(`grants ${join(s.home, ".ssh")}, which is`);
    expect(snapshotTree(s.root)).toEqual(before);
  });

  test("--force records a sensitive or too broad grant, with a warning", async () => {
    const s = await withBundles();
    const r = await s.gjc(["plugin", "allow", "notes", "--read", "~/.ssh", "--read", "~", "--force", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(
      r
        .json()
        .warnings.map((w: { code: string }) => w.code)
        .sort(),
    ).toEqual(["grant_too_broad", "path_missing", "sensitive_grant"]);
    expect(r.json().grants.read).toEqual([s.home, join(s.home, ".ssh")].sort());
  });

  test("--dry-run changes nothing and says what would be granted", async () => {
    const s = await withBundles();
    const before = snapshotTree(s.root);
    const r = await s.gjc(["plugin", "allow", "notes", "--net", "example.org", "--dry-run", "--json"]);
    expect(r.json()).toMatchObject({ status: "granted", dryRun: true });
    expect(snapshotTree(s.root)).toEqual(before);
  });
});

describe("a grants file gjc did not write is foreign", () => {
  test("hand-edited: not believed, shown, never overwritten", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--net", "example.org:443"]);
    const path = join(s.user, "grants.json");
    const edited = readFileSync(path, "utf8").replace('"example.org"', '"evil.example"');
    writeFileSync(path, edited);
    const p = await permissions(s, "notes");
    expect(p.grantsFile).toMatchObject({ state: "foreign", path });
    expect(p.grants.net).toEqual([]);
    expect(p.processes[0].profile.net).toEqual([]);
    const before = snapshotTree(s.root);
    const r = await s.gjc(["plugin", "allow", "notes", "--net", "other.example", "--json"]);
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stderr.trim().split("\n").at(-1)!).error.code).toBe("grants_foreign");
    expect(snapshotTree(s.root)).toEqual(before);
    // doctor reports it and, even with --fix, leaves it for the user to look at.
    const doctor = await s.gjc(["plugin", "doctor", "--fix", "--json"]);
    expect(JSON.parse(doctor.stdout).findings.filter((f: { path: string }) => f.path === path)).toEqual([
      expect.objectContaining({ kind: "foreign_grants", severity: "warning", fixable: false, command: `rm ${path}` }),
    ]);
    expect(readFileSync(path, "utf8")).toBe(edited);
  });

  test("a project grants file that came with a repository grants nothing, and a user file copied into a project does not verify there", async () => {
    const s = box();
    const src = writeGjcServerBundle(s, "src/p-notes", "pnotes");
    expect((await s.gjc(["plugin", "install", src, "--project"])).exitCode).toBe(0);
    expect(
      (await s.gjc(["plugin", "install", writeGjcServerBundle(s, "src/u-notes", "unotes"), "--user"])).exitCode,
    ).toBe(0);
    await s.gjc(["plugin", "allow", "unotes", "--net", "example.org"]);
    const user = JSON.parse(readFileSync(join(s.user, "grants.json"), "utf8"));
    // The same signed content under the project's bundle name: the MAC binds the store, so it fails.
    const shipped = { ...user, bundles: { "gjc:pnotes": user.bundles["gjc:unotes"] } };
    writeFileSync(join(s.project, ".gjc", "gjc-plugins", "grants.json"), JSON.stringify(shipped));
    const p = await permissions(s, "pnotes");
    expect(p.grantsFile.state).toBe("foreign");
    expect(p.grants.net).toEqual([]);
    writeFileSync(join(s.project, ".gjc", "gjc-plugins", "grants.json"), JSON.stringify(user));
    expect((await permissions(s, "pnotes")).grantsFile.state).toBe("foreign");
    // A link to a file this user signed for another project is not followed.
    const other = box();
    expect(
      (
        await other.gjc(["plugin", "install", writeGjcServerBundle(other, "src/p-notes", "pnotes"), "--project"], {
          env: { HOME: s.home, GJC_USER_DIR: s.user },
        })
      ).exitCode,
    ).toBe(0);
    expect(
      (
        await other.gjc(["plugin", "allow", "pnotes", "--net", "example.org"], {
          env: { HOME: s.home, GJC_USER_DIR: s.user },
        })
      ).exitCode,
    ).toBe(0);
    rmSync(join(s.project, ".gjc", "gjc-plugins", "grants.json"));
    symlinkSync(
      join(other.project, ".gjc", "gjc-plugins", "grants.json"),
      join(s.project, ".gjc", "gjc-plugins", "grants.json"),
    );
    const linked = await permissions(s, "pnotes");
    expect(linked.grantsFile).toMatchObject({ state: "foreign", problem: "it is a symbolic link" });
    expect(linked.grants.net).toEqual([]);
    expect(existsSync(join(s.project, ".gjc", "gjc-plugins", "grants.json"))).toBe(true);
  });
});

describe("grants in inspect and audit", () => {
  test("inspect shows the grants of both families, human and --json", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--net", "example.org:443"]);
    await s.gjc(["plugin", "allow", "kit", "--lsp", "ls", "--project", "read"]);
    const gjc = await s.gjc(["plugin", "inspect", "notes", "--json"]);
    expect(gjc.json().bundle.grants).toEqual({
      state: "signed",
      bundle: { read: [], write: [], net: [{ host: "example.org", port: 443 }], project: null },
      processes: [],
    });
    const c2 = await s.gjc(["plugin", "inspect", "kit", "--json"]);
    expect(c2.json().bundle.grants.processes).toEqual([
      { process: { kind: "lsp", id: "ls" }, grants: { read: [], write: [], net: [], project: "read" } },
    ]);
    expect((await s.gjc(["plugin", "inspect", "notes"])).stdout).toContain("grants:    net example.org:443");
    expect((await s.gjc(["plugin", "inspect", "kit"])).stdout).toContain("language server ls: project read");
  });

  test("audit: a sensitive grant and a grant of the home are findings with their own rule ids, in JSON, human and SARIF", async () => {
    const s = await withBundles();
    const clean = await s.gjc(["plugin", "audit", "notes", "--json"]);
    expect(clean.json().findings.filter((f: { ruleId: string }) => f.ruleId.startsWith("sandbox-grant"))).toEqual([]);
    expect(
      (await s.gjc(["plugin", "allow", "notes", "--server", "notes", "--read", "~/.gjc/state.key", "--force"]))
        .exitCode,
    ).toBe(0);
    expect((await s.gjc(["plugin", "allow", "kit", "--write", "~", "--force"])).exitCode).toBe(0);

    const a = (await s.gjc(["plugin", "audit", "notes", "--json"])).json();
    const sensitive = a.findings.find((f: { ruleId: string }) => f.ruleId === "sandbox-grant-sensitive");
    expect(sensitive).toMatchObject({
      level: "warning",
      subject: "grant:server:notes",
      at: { file: "grants.json", pointer: "/bundles/gjc:notes/processes/server:notes/read/0" },
    });
    expect(sensitive.message).toContain(join(s.home, ".gjc", "state.key"));
    expect(a.grants.processes[0].grants.read).toEqual([join(s.home, ".gjc", "state.key")]);

    const kit = (await s.gjc(["plugin", "audit", "kit", "--json"])).json();
    expect(kit.findings.find((f: { ruleId: string }) => f.ruleId === "sandbox-grant-broad")).toMatchObject({
      level: "error",
      subject: "grant:kit",
    });

    const human = await s.gjc(["plugin", "audit", "notes"]);
    expect(human.stdout).toContain("[sandbox-grant-sensitive]");
    expect(human.stdout).toContain(`server notes: read ${join(s.home, ".gjc", "state.key")}`);

    const sarif = JSON.parse((await s.gjc(["plugin", "audit", "notes", "--sarif"])).stdout);
    const run = sarif.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toContain("sandbox-grant-sensitive");
    expect(run.results.find((r: { ruleId: string }) => r.ruleId === "sandbox-grant-sensitive").level).toBe("warning");

    const gated = await s.gjc(["plugin", "audit", "notes", "--fail-on", "sandbox-grant-sensitive", "--json"]);
    expect(gated.exitCode).toBe(3);
  });

  test("a foreign grants file gives no findings and no grants", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--read", "~/.ssh", "--force"]);
    writeFileSync(
      join(s.user, "grants.json"),
      readFileSync(join(s.user, "grants.json"), "utf8").replace("hmac-sha256:", "hmac-sha256:0"),
    );
    const a = (await s.gjc(["plugin", "audit", "notes", "--json"])).json();
    expect(a.grants.state).toBe("foreign");
    expect(a.findings.filter((f: { ruleId: string }) => f.ruleId.startsWith("sandbox-grant"))).toEqual([]);
  });
});

describe("grants in the capability diff", () => {
  test("audit --against shows the grants that would carry over, who inherits them, and what would apply to nothing", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--net", "example.org:443"]);
    await s.gjc(["plugin", "allow", "notes", "--server", "notes", "--project", "read"]);
    const next = s.write("src/notes-2", {
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "notes",
        version: "2.0.0",
        mcps: [{ name: "search", transport: "stdio", command: "bun", args: ["mcp/search.mjs"] }],
      },
      "mcp/search.mjs": "// another server\n",
    });
    const r = await s.gjc(["plugin", "audit", next, "--against", "notes", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json().capabilityDiff.grants).toEqual({
      bundle: { read: [], write: [], net: [{ host: "example.org", port: 443 }], project: null },
      processes: [
        {
          process: { kind: "server", id: "notes" },
          grants: { read: [], write: [], net: [], project: "read" },
          declared: false,
        },
      ],
      inheritedBy: ["mcp-stdio:search"],
    });
    const human = await s.gjc(["plugin", "audit", next, "--against", "notes"]);
    expect(human.stdout).toContain("sandbox grants kept: net example.org:443 (also for the added mcp-stdio:search)");
    expect(human.stdout).toContain("server notes: project read (no longer declared: applies to nothing)");
  });

  test("install --force --dry-run and upgrade-style diffs show the grants that carry over (both families)", async () => {
    const s = await withBundles();
    await s.gjc(["plugin", "allow", "notes", "--net", "example.org:443"]);
    await s.gjc(["plugin", "allow", "kit", "--lsp", "ls", "--net", "127.0.0.1:9"]);
    const next = s.write("src/notes-3", {
      "gajae-plugin.json": {
        kind: "gajae-code-plugin",
        name: "notes",
        version: "3.0.0",
        mcps: [{ name: "notes", transport: "stdio", command: "bun", args: ["mcp/notes.mjs", "--v3"] }],
      },
      "mcp/notes.mjs": "// v3\n",
    });
    const gjc = await s.gjc(["plugin", "install", next, "--user", "--force", "--dry-run", "--json"]);
    expect(gjc.exitCode).toBe(0);
    expect(gjc.json().capabilityDiff.grants.bundle.net).toEqual([{ host: "example.org", port: 443 }]);
    const human = await s.gjc(["plugin", "install", next, "--user", "--force", "--dry-run"]);
    expect(human.stdout).toContain("sandbox grants kept: net example.org:443");
    const kit2 = join(s.root, "src", "c2-kit");
    const manifest = JSON.parse(readFileSync(join(kit2, "plugin.json"), "utf8"));
    manifest.version = "1.1.0";
    writeFileSync(join(kit2, "plugin.json"), JSON.stringify(manifest));
    const c2 = await s.gjc(["plugin", "install", kit2, "--user", "--force", "--dry-run", "--json"]);
    expect(c2.exitCode).toBe(0);
    expect(c2.json().capabilityDiff.grants.processes).toEqual([
      {
        process: { kind: "lsp", id: "ls" },
        grants: { read: [], write: [], net: [{ host: "127.0.0.1", port: 9 }], project: null },
        declared: true,
      },
    ]);
  });

  test("no grants, no grants section", async () => {
    const s = await withBundles();
    const r = await s.gjc(["plugin", "audit", writeGjcServerBundle(s, "src/again"), "--against", "notes", "--json"]);
    expect(r.json().capabilityDiff.grants).toBeUndefined();
  });
});
