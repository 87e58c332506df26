/**
 * A small JSON Schema (draft-04) checker for the keywords the vendored SARIF subset uses:
 * type, enum, required, properties, additionalProperties, items, minItems, uniqueItems,
 * minimum, maximum, pattern, anyOf and local $ref. Ajv is not a dependency, and TypeBox's
 * Value checks TypeBox schemas rather than draft-04 documents with #/definitions refs.
 * Returns every violation as "<pointer>: <problem>".
 */
type Schema = Record<string, any>;

const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;
const matchesType = (v: unknown, t: string) => t === typeOf(v) || (t === "number" && typeof v === "number");

export function checkJsonSchema(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const resolve = (s: Schema): Schema => {
    if (typeof s.$ref !== "string") return s;
    if (!s.$ref.startsWith("#/definitions/")) throw new Error(`unsupported $ref ${s.$ref}`);
    const target = root.definitions?.[s.$ref.slice("#/definitions/".length)];
    if (!target) throw new Error(`dangling $ref ${s.$ref}`);
    return target;
  };
  const walk = (schema: Schema, v: unknown, at: string): void => {
    const s = resolve(schema);
    if (s.type !== undefined) {
      const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
      if (!types.some((t) => matchesType(v, t)))
        return void errors.push(`${at}: expected ${types.join("|")}, got ${typeOf(v)}`);
    }
    if (s.enum && !s.enum.some((e: unknown) => e === v))
      errors.push(`${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`);
    if (typeof v === "number") {
      if (s.minimum !== undefined && v < s.minimum) errors.push(`${at}: ${v} < minimum ${s.minimum}`);
      if (s.maximum !== undefined && v > s.maximum) errors.push(`${at}: ${v} > maximum ${s.maximum}`);
    }
    if (typeof v === "string" && s.pattern && !new RegExp(s.pattern).test(v))
      errors.push(`${at}: does not match ${s.pattern}`);
    if (Array.isArray(v)) {
      if (s.minItems !== undefined && v.length < s.minItems) errors.push(`${at}: fewer than ${s.minItems} items`);
      if (s.uniqueItems && new Set(v.map((x) => JSON.stringify(x))).size !== v.length)
        errors.push(`${at}: items are not unique`);
      if (s.items) v.forEach((x, i) => walk(s.items, x, `${at}/${i}`));
    }
    if (typeOf(v) === "object") {
      const obj = v as Record<string, unknown>;
      for (const key of s.required ?? []) if (!(key in obj)) errors.push(`${at}: missing required ${key}`);
      for (const [key, x] of Object.entries(obj)) {
        const prop = s.properties?.[key];
        if (prop) walk(prop, x, `${at}/${key}`);
        else if (s.additionalProperties === false) errors.push(`${at}: unknown property ${key}`);
        else if (typeof s.additionalProperties === "object") walk(s.additionalProperties, x, `${at}/${key}`);
      }
    }
    if (s.anyOf) {
      const ok = s.anyOf.some((alt: Schema) => {
        const before = errors.length;
        walk(alt, v, at);
        const passed = errors.length === before;
        errors.length = before;
        return passed;
      });
      if (!ok) errors.push(`${at}: matches none of anyOf`);
    }
  };
  walk(root, value, "");
  return errors;
}
