/**
 * Whether a C2 contribution (a UI action, a language server) can be used now, in the words
 * every gjc document uses for it (`gjc/c2-session@1` bundles, `gjc/mcp-list@1` servers): a
 * plain status, and the reasons as `{code, message}` with the refusal's error code, which
 * `gjc explain` knows.
 */
export type Availability = "ready" | "disabled" | "untrusted" | "quarantined" | "pending" | "unavailable";

export interface AvailabilityReason {
  code: string;
  message: string;
}

const STATUS_OF_REFUSAL: Record<string, Availability> = {
  quarantined: "quarantined",
  untrusted: "untrusted",
  trust_outdated: "untrusted",
  plugin_disabled: "disabled",
  policy_disabled: "disabled",
  policy_safe_mode: "disabled",
  component_disabled: "disabled",
  missing_service: "pending",
};

/** The status a refusal's error code means; a refusal this table does not name is `unavailable`. */
export function availabilityOf(code: string): Availability {
  return STATUS_OF_REFUSAL[code] ?? "unavailable";
}
