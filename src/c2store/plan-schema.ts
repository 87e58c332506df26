/**
 * The closed TypeBox schema of a stored policy plan `plugin-plans/<token>.json` (plans.ts):
 * the one definition of its shape. A plan that does not match it is never applied. The JSON
 * form is generated into src/c2store/disk-schemas.generated.ts, so a valid plan never loads TypeBox;
 * plans.ts derives its TypeScript types from these.
 */
import Type from "typebox";
import { closed } from "../core/schema-kit.ts";
import { PLAN_TOKEN_PATTERN } from "./plan-token.ts";
import { INSTALLED_ID_PATTERN } from "./record-schema.ts";

export const PlanRequest = Type.Object(
  {
    // `bundle:<installed id>`.
    plugin: Type.String({ pattern: "^bundle:" }),
    installed_id: Type.String({ pattern: INSTALLED_ID_PATTERN }),
    // Normalized absolute project path; null for the user scope.
    project: Type.Union([Type.Null(), Type.String({ pattern: "^(?:/|[A-Za-z]:[\\\\/])" })]),
    state: Type.Enum(["enabled", "disabled", "inherit"]),
    // Present only when the plan sets a configuration.
    config: Type.Optional(Type.Unknown()),
    // Full component id (`bundle:<id>:<kind>:<local id>`), or null for the whole plugin.
    component: Type.Union([Type.Null(), Type.String()]),
  },
  closed,
);

export const StoredPlanSchema = Type.Object(
  {
    schema_version: Type.Literal(1),
    token: Type.String({ pattern: PLAN_TOKEN_PATTERN }),
    created_at: Type.String(),
    expires_at: Type.String(),
    config_revision: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    graph_revision: Type.String(),
    request: PlanRequest,
  },
  closed,
);
