/**
 * The closed TypeBox schema of `plugin-config.json` (policy-doc.ts, c2-notes §7.1): the one
 * definition of its shape. Anything it does not allow makes the document unusable, and the
 * store falls back to the last good copy. The JSON form is generated into
 * src/c2store/disk-schemas.generated.ts, so a valid policy never loads TypeBox; policy-doc.ts
 * derives its TypeScript types from these.
 */
import Type from "typebox";
import { closed } from "../core/schema-kit.ts";

export const State = Type.Enum(["enabled", "disabled"]);

export const PluginPolicy = Type.Object(
  {
    // Absent means inherit.
    state: Type.Optional(State),
    // Any JSON value: bundle runtimes declare no config schema in 1.2.0.
    config: Type.Optional(Type.Unknown()),
    // Per-component overrides; absent means inherit.
    components: Type.Optional(Type.Record(Type.String({ pattern: "^[A-Za-z0-9_.:-]{1,300}$" }), State, closed)),
  },
  closed,
);

/** `bundle:<id>` → its policy. */
export const PolicyMap = Type.Record(Type.String({ pattern: "^[A-Za-z0-9_.:-]{1,200}$" }), PluginPolicy, closed);

export const PolicyDocumentSchema = Type.Object(
  {
    schema_version: Type.Literal(1),
    revision: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    // Both maps may be absent on disk (an empty intent); the parser fills them in.
    user: Type.Optional(PolicyMap),
    // Keyed by normalized absolute project path (POSIX, or a Windows drive path).
    projects: Type.Optional(Type.Record(Type.String({ pattern: "^(?:/|[A-Za-z]:[\\\\/])" }), PolicyMap, closed)),
  },
  closed,
);
