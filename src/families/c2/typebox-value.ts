/**
 * TypeBox's value checker set to report every error (it stops at 8 by default). Loaded with
 * `require` from schema-errors.ts only when a document fails the fast check, so valid
 * bundles never pay for TypeBox at start-up.
 */
import { Settings } from "typebox/system";
import { Value } from "typebox/value";

Settings.Set({ maxErrors: 100_000 });

export { Value };
