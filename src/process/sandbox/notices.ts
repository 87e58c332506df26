/**
 * What the sandbox has to tell the user during one command: that it could not be enforced
 * (`sandbox_unavailable`), that it was switched off (`sandbox_off`), that it refused something
 * (`sandbox_denied`). The launcher records them here (core never prints); the CLI shows each
 * once after the verb, and verbs with --json warnings carry them there. Deduplicated by text,
 * so "say so once per command" holds however many processes a command starts.
 */
export interface SandboxNotice {
  code: "sandbox_unavailable" | "sandbox_off" | "sandbox_denied";
  message: string;
  hint: string;
}

const notices = new Map<string, SandboxNotice>();
const listeners = new Set<(notice: SandboxNotice) => void>();

export function recordSandboxNotice(notice: SandboxNotice): void {
  const key = `${notice.code}\0${notice.message}`;
  if (notices.has(key)) return;
  notices.set(key, notice);
  for (const listener of listeners) listener(notice);
}

/** Calls `listener` with each new notice (the long-running `gjc host --stdio` sends them on); returns the unsubscribe. */
export function onSandboxNotice(listener: (notice: SandboxNotice) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every notice since the last drain, in the order they were first recorded. */
export function drainSandboxNotices(): SandboxNotice[] {
  const all = [...notices.values()];
  notices.clear();
  return all;
}

/** The notices so far, left in place (for a --json document built before the CLI drains). */
export function peekSandboxNotices(): SandboxNotice[] {
  return [...notices.values()];
}
