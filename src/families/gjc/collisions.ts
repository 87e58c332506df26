import type { DiagnosticSink } from "../../core/diagnostics.ts";
import { collisionKeys } from "./ids.ts";
import type { GjcSurface } from "./surface-types.ts";

/**
 * Intra-bundle collisions: two surfaces of one bundle that share a collision key (the same
 * keys install uses across bundles). The later declaration is reported.
 */
export function reportDuplicates(sink: DiagnosticSink, surfaces: GjcSurface[], where: Map<GjcSurface, string>): void {
  const seen = new Map<string, GjcSurface>();
  for (const surface of surfaces)
    for (const k of collisionKeys(surface)) {
      const first = seen.get(`${k.code}\0${k.key}`);
      if (first === undefined) {
        seen.set(`${k.code}\0${k.key}`, surface);
        continue;
      }
      sink.error(
        k.code,
        where.get(surface) ?? "",
        `The ${k.label} is declared twice in this bundle (also at ${where.get(first) ?? first.id}).`,
        k.code === "duplicate_parent_phase"
          ? "Only one sub-skill may bind to a parent phase; merge the two or bind one to another phase."
          : "Rename one of them, or remove the duplicate.",
      );
    }
}
