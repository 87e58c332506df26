import { allowCommand } from "./allow-command.ts";
import { describe } from "./confine.ts";
import { recordSandboxNotice } from "./notices.ts";
import type { SandboxSubject } from "./profile.ts";

/**
 * Connections a sandboxed process reports as refused, in the words Node and Bun use for a
 * failed connect (`connect EACCES 127.0.0.1:5432`) and a failed lookup (`getaddrinfo EAI_AGAIN
 * example.com`). The kernel tells the process, not gjc; what the process prints is where gjc
 * can see it, so a denial is named only when the process reports it.
 */
const CONNECT = /\bconnect (?:EACCES|EPERM|ENETUNREACH) (\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})\b/g;
const LOOKUP = /\bgetaddrinfo (?:EAI_AGAIN|ENOTFOUND) ([A-Za-z0-9.-]+\.[A-Za-z]{2,})\b/g;

export interface Denial {
  host: string;
  port?: number;
}

export function denialsIn(text: string): Denial[] {
  const found = new Map<string, Denial>();
  for (const m of text.matchAll(CONNECT)) {
    const port = Number(m[2]);
    if (port > 0 && port < 65536) found.set(`${m[1]}:${port}`, { host: m[1] as string, port });
  }
  for (const m of text.matchAll(LOOKUP))
    if (![...found.values()].some((d) => d.host === m[1])) found.set(m[1] as string, { host: m[1] as string });
  return [...found.values()];
}

/** The `gjc plugin allow` that would let the subject reach `d`. */
export function allowCommandFor(subject: SandboxSubject, d: Denial): string {
  const host = d.host.startsWith("[") ? d.host.slice(1, -1) : d.host;
  return allowCommand(subject, { net: d.port === undefined ? { host } : { host, port: d.port } });
}

/** Records a `sandbox_denied` notice for every refused connection in what the process printed. */
export function reportDenials(subject: SandboxSubject, output: string): Denial[] {
  const denials = denialsIn(output);
  for (const d of denials) {
    recordSandboxNotice({
      code: "sandbox_denied",
      message:
        d.port === undefined
          ? `${describe(subject)} tried to look up ${d.host}, and its sandbox has no network`
          : `${describe(subject)} tried to connect to ${d.host}:${d.port}, which its sandbox does not allow`,
      hint: `if it should: ${allowCommandFor(subject, d)}`,
    });
  }
  return denials;
}
