import { describe, expect, test } from "bun:test";
import { repeatedYamlKey } from "../../../src/bundle/yaml-keys.ts";

const check = (yaml: string) => repeatedYamlKey(yaml, Bun.YAML.parse(yaml) as Record<string, unknown>);

describe("repeatedYamlKey", () => {
  test("a top-level key written twice is found however it is quoted; one spelled two ways is reported without a name", () => {
    expect(check("name: a\nname: b\n")).toBe("name");
    expect(check('name: a\n"name": b\n')).toBe("name");
    expect(check("'it''s': 1\nit's: 2\n")).toBe("it's");
    expect(check("0x10: a\n16: b\n")).toBe(""); // one integer key, two spellings
  });

  test("keys inside block scalars, comments, URLs, merge keys and nested mappings are not counted as repeats", () => {
    for (const yaml of [
      "name: a\ndescription: |\n  name: x\n  y\n",
      "name: >\n  folded\n  name: no\ntools: [a, b]\n",
      "a: 1 # c: d\nb: 2\n",
      "url: https://x\nname: n\n",
      "<<: {x: 1}\na: 2\n",
      "a:\n  k: 1\nb:\n  k: 2\n",
    ]) {
      expect(check(yaml)).toBeUndefined();
    }
  });
});
