/**
 * The shape of a policy plan token (32 lowercase hex digits), shared by the plan schema and the
 * plan store. Its own module: the store must not load the schema (TypeBox) on every apply, and
 * the schema must not import the store (they would import each other).
 */
export const PLAN_TOKEN_PATTERN = "^[0-9a-f]{32}$";
