/**
 * What a runtime's `connector/event` must be before the host forwards it (c2-notes §6.7): an
 * object payload with the reference envelope — `connectorId` naming a connector the emitting
 * bundle declares, a non-empty `eventId` (plugins dedupe at-least-once delivery by it), a
 * non-empty `kind` and a `createdAt` timestamp — plus the provider's own fields. A `plugin_id`
 * in it is the host's to set, so it is dropped before the event is passed on.
 */
import type { C2Manifest } from "../families/c2/types.ts";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** The event to forward, or why it is dropped. */
export function checkConnectorEvent(
  manifest: C2Manifest,
  payload: unknown,
): { ok: true; event: Record<string, unknown> } | { ok: false; problem: string } {
  if (!isObject(payload)) return { ok: false, problem: "its payload is not an object" };
  const { plugin_id: _setByTheHost, ...event } = payload;
  if (!nonEmpty(event.connectorId)) return { ok: false, problem: "it has no connectorId" };
  const connectorId = event.connectorId;
  if (!manifest.codetwo.connectors.some((c) => c.id === connectorId))
    return { ok: false, problem: `the bundle declares no connector ${JSON.stringify(connectorId).slice(0, 80)}` };
  if (!nonEmpty(event.eventId)) return { ok: false, problem: "it has no eventId" };
  if (!nonEmpty(event.kind)) return { ok: false, problem: "it has no kind" };
  if (!nonEmpty(event.createdAt) || Number.isNaN(Date.parse(event.createdAt)))
    return { ok: false, problem: "its createdAt is not a timestamp" };
  return { ok: true, event };
}
