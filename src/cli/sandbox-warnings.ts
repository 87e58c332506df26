import { peekSandboxNotices } from "../process/sandbox/notices.ts";

/**
 * The sandbox's notices so far, as the `warnings` of a --json document (absent when there are
 * none). main still prints them on stderr after the verb, once.
 */
export function sandboxWarnings(): {
  warnings?: { code: "sandbox_unavailable" | "sandbox_off" | "sandbox_denied"; message: string; hint: string }[];
} {
  const notices = peekSandboxNotices();
  return notices.length > 0 ? { warnings: notices } : {};
}
