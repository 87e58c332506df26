/**
 * The exact `gjc plugin allow …` command line that grants one access to one sandboxed process:
 * what a denial message and the grant verbs show. It lives beside the profile so the enforcer
 * (a leaf) and the grants store render it the same way.
 */
import type { NetGrant, SandboxSubject } from "./profile.ts";

/** A word for a shell: kept as is when it has no special characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The process selector flags of a subject: `--server <id>`, `--runtime`, `--lsp <id>`, or none. */
export function processFlags(p: SandboxSubject["process"]): string[] {
  if (!p) return [];
  if (p.kind === "runtime") return ["--runtime"];
  return [p.kind === "server" ? "--server" : "--lsp", p.id ?? ""];
}

/** `host[:port]`, an IPv6 host in brackets. */
export function formatNetGrant(g: NetGrant): string {
  const host = g.host.includes(":") ? `[${g.host}]` : g.host;
  return g.port === undefined ? host : `${host}:${g.port}`;
}

/** The exact `gjc plugin allow …` that grants `want` to the subject. */
export function allowCommand(subject: SandboxSubject, want: { read?: string; write?: string; net?: NetGrant }): string {
  const words = ["gjc", "plugin", "allow", subject.bundle, ...processFlags(subject.process)];
  if (want.read !== undefined) words.push("--read", want.read);
  if (want.write !== undefined) words.push("--write", want.write);
  if (want.net !== undefined) words.push("--net", formatNetGrant(want.net));
  return words.map(shellWord).join(" ");
}
