import { describe, expect, test } from "bun:test";
import { diffCapabilities, diffTrusted, summarizeTrustDiff } from "../../../src/families/capability-diff.ts";
import type { CapabilityModel } from "../../../src/families/capability-model.ts";
import { trustedCapabilities, trustedCapabilitiesProblem, trustStateOf } from "../../../src/families/c2/trust.ts";

const at = { file: "plugin.json", pointer: "/x" };
function model(over: Partial<CapabilityModel> = {}): CapabilityModel {
  return {
    family: "c2",
    name: "p",
    version: "1.0.0",
    processes: [
      {
        id: "c2-runtime:runtime",
        kind: "c2-runtime",
        name: "runtime",
        command: "node",
        args: ["a.js"],
        cwd: "${PLUGIN_ROOT}",
        commandInBundle: false,
        script: "a.js",
        codeSha256: `sha256:${"a".repeat(64)}`,
        hostEnvironment: "allow-list",
        at,
      },
    ],
    endpoints: [
      {
        id: "mcp:r",
        kind: "mcp",
        name: "r",
        transport: "sse",
        url: "https://h.example/s",
        scheme: "https",
        host: "h.example",
        headers: ["X-B", "X-A"],
        at,
      },
    ],
    env: [{ owner: "c2-runtime:runtime", name: "MODE", mode: "sets", from: null, at }],
    hooks: [],
    hostCommands: [{ owner: "c2-runtime:runtime", kind: "inject", name: "extensions-runtime", at }],
    prompts: [
      {
        id: "skill:s",
        kind: "skill",
        name: "s",
        path: "skills/s/SKILL.md",
        bytes: 10,
        sha256: `sha256:${"b".repeat(64)}`,
      },
    ],
    promptBytes: 10,
    files: { count: 3, bytes: 100 },
    ...over,
  };
}

describe("capability digest and diffs", () => {
  test("the digest ignores prompt text, declaration places and header order, and follows code and args", () => {
    const base = trustedCapabilities(model());
    expect(base.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const text = model({
      prompts: [{ ...model().prompts[0], bytes: 99, sha256: `sha256:${"c".repeat(64)}` }],
      promptBytes: 99,
      files: { count: 4, bytes: 200 },
    });
    expect(trustedCapabilities(text).digest).toBe(base.digest);
    const moved = model({
      endpoints: [{ ...model().endpoints[0], headers: ["X-A", "X-B"], at: { file: "mcp.json", pointer: "/y" } }],
    });
    expect(trustedCapabilities(moved).digest).toBe(base.digest);
    const args = model({ processes: [{ ...model().processes[0], args: ["a.js", "--x"] }] });
    expect(trustedCapabilities(args).digest).not.toBe(base.digest);
    const code = model({ processes: [{ ...model().processes[0], codeSha256: `sha256:${"d".repeat(64)}` }] });
    expect(trustedCapabilities(code).digest).not.toBe(base.digest);
    expect(summarizeTrustDiff(diffTrusted(base, trustedCapabilities(args)))).toBe(
      "~ process c2-runtime:runtime (args)",
    );
    expect(summarizeTrustDiff(diffTrusted(base, trustedCapabilities(code)))).toBe(
      "~ process c2-runtime:runtime (codeSha256)",
    );
  });

  test("trust state and the record field check", () => {
    const a = trustedCapabilities(model());
    const b = trustedCapabilities(model({ env: [] }));
    expect(trustStateOf({ trusted: false, capabilities: a, trusted_capabilities: a })).toBe("untrusted");
    expect(trustStateOf({ trusted: true, capabilities: b, trusted_capabilities: a })).toBe("needs-retrust");
    expect(trustStateOf({ trusted: true, capabilities: a, trusted_capabilities: a })).toBe("trusted");
    expect(trustStateOf({ trusted: true })).toBe("trusted");
    expect(trustedCapabilitiesProblem(a, "capabilities")).toBeUndefined();
    expect(trustedCapabilitiesProblem({ ...a, env: [] }, "capabilities")).toBe(
      "capabilities.digest does not match its capabilities",
    );
    expect(trustedCapabilitiesProblem({ ...a, digest: "sha256:x" }, "capabilities")).toContain("must be sha256");
  });

  test("diffCapabilities: added, removed, changed; prompt text alone leaves it empty", () => {
    const before = model();
    const text = diffCapabilities(
      before,
      model({ prompts: [{ ...before.prompts[0], bytes: 30, sha256: `sha256:${"e".repeat(64)}` }], promptBytes: 30 }),
    );
    expect(text.empty).toBe(true);
    expect(text.prompts).toEqual({ before: 10, after: 30, delta: 20, added: [], removed: [], changed: ["skill:s"] });
    const wide = diffCapabilities(
      before,
      model({
        endpoints: [],
        env: [...before.env, { owner: "c2-runtime:runtime", name: "TOKEN", mode: "passes", from: "TOKEN", at }],
      }),
    );
    expect(wide.empty).toBe(false);
    expect(wide.endpoints.removed.map((e) => e.id)).toEqual(["mcp:r"]);
    expect(wide.env.added.map((v) => v.name)).toEqual(["TOKEN"]);
  });
});
