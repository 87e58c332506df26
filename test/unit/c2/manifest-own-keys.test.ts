/**
 * The normalized manifest copies maps key by key (no Object.fromEntries on the start-up path):
 * a "__proto__" key read from JSON must stay an own data property, never the prototype.
 */
import { describe, expect, test } from "bun:test";
import { parseC2Manifest } from "../../../src/families/c2/manifest.ts";

const SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

describe("parseC2Manifest own keys", () => {
  test("__proto__ in extensions, runtime.env and a language server's env stays data", () => {
    const raw = JSON.parse(`{
      "$schema": "${SCHEMA}", "name": "demo", "version": "1.0.0",
      "extensions": {
        "__proto__": { "polluted": true },
        "com.other": { "keep": 1 },
        "dev.codetwo": {
          "standardVersion": "1.2.0",
          "commands": [{ "id": "demo.run", "title": "Run" }],
          "runtime": { "command": "node", "env": { "__proto__": "x", "A": "1" } },
          "languageServers": [{ "id": "zls", "languages": ["zig"], "command": "zls", "env": { "__proto__": "y" } }]
        }
      }
    }`);
    const { manifest, diagnostics } = parseC2Manifest(raw);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const ext = manifest!.extensions as Record<string, unknown>;
    expect(Object.getPrototypeOf(ext)).toBe(Object.prototype);
    expect(Object.keys(ext)).toEqual(["__proto__", "com.other"]);
    expect(Object.getOwnPropertyDescriptor(ext, "__proto__")?.value).toEqual({ polluted: true });
    expect((ext as { polluted?: unknown }).polluted).toBeUndefined();
    const env = manifest!.codetwo.runtime!.env;
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
    expect(Object.keys(env)).toEqual(["__proto__", "A"]);
    expect(Object.getOwnPropertyDescriptor(env, "__proto__")?.value).toBe("x");
    expect(Object.getOwnPropertyDescriptor(manifest!.codetwo.languageServers[0].env, "__proto__")?.value).toBe("y");
    // The same as Object.fromEntries gave.
    expect(JSON.stringify(env)).toBe(
      JSON.stringify(
        Object.fromEntries([
          ["__proto__", "x"],
          ["A", "1"],
        ]),
      ),
    );
  });
});
