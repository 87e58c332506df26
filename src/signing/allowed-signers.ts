/**
 * The allowed_signers format of ssh-keygen(1) (ALLOWED SIGNERS): one key a line,
 *
 *     principals [options] keytype base64-key [comment]
 *
 * principals a comma-separated pattern list (quoted when it holds spaces), options
 * comma-separated: `cert-authority`, `namespaces="<pattern list>"`, `valid-after=` and
 * `valid-before=` (YYYYMMDD or YYYYMMDDHHMM[SS], local time unless it ends in Z). ssh-keygen
 * refuses an option it does not know, so gjc's own restriction (which bundle names a key may
 * sign) lives in the free comment as `gjc-for=<pattern list>`, where ssh-keygen ignores it.
 */
import { certificateProblem, type SshCertificate } from "./certificate.ts";
import { isCertificateType, KeyFormatError, parsePublicKeyLine, type SshPublicKey } from "./ssh-keys.ts";

export interface AllowedSigner {
  /** 1-based line in its file. */
  line: number;
  principals: string;
  certAuthority: boolean;
  namespaces?: string;
  validAfter?: Date;
  validBefore?: Date;
  /** Bundle-name patterns this key may sign (gjc-for= in the comment); absent = any. */
  forNames?: string;
  /** Absent when the key could not be used (`unusable` says why). */
  key?: SshPublicKey;
  keyText: string;
  comment: string;
  unusable?: string;
}

export interface ParseProblem {
  line: number;
  message: string;
}

export class AllowedSignersError extends Error {}

/** ssh's match_pattern: `*` any run, `?` one character, nothing else special. */
export function matchPattern(s: string, pattern: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, "[\\s\\S]*")
      .replace(/\?/g, "[\\s\\S]")}$`,
    "s",
  );
  return re.test(s);
}

/** ssh's match_pattern_list: comma-separated patterns, a `!` pattern that matches vetoes. */
export function matchPatternList(s: string, list: string): boolean {
  let matched = false;
  for (const raw of list.split(",")) {
    const negated = raw.startsWith("!");
    const p = negated ? raw.slice(1) : raw;
    if (p === "") continue;
    if (matchPattern(s, p)) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}

/** A timestamp as ssh-keygen reads it; local time unless it ends in Z. */
export function parseTimestamp(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/i.exec(text);
  if (!m) throw new AllowedSignersError(`timestamp "${text}" is not YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]`);
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59)
    throw new AllowedSignersError(`timestamp "${text}" is not a valid date`);
  return m[7] ? new Date(Date.UTC(y, mo - 1, d, h, mi, s)) : new Date(y, mo - 1, d, h, mi, s);
}

/** Reads one whitespace-delimited field, where double quotes protect spaces (and are removed). */
function field(line: string, at: number): { value: string; next: number } {
  let i = at;
  while (i < line.length && /\s/.test(line[i])) i++;
  let value = "";
  let quoted = false;
  for (; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      quoted = !quoted;
      value += c;
      continue;
    }
    if (!quoted && /\s/.test(c)) break;
    value += c;
  }
  if (quoted) throw new AllowedSignersError("unterminated quote");
  return { value, next: i };
}

const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

/** Splits an options field at commas outside quotes. */
function splitOptions(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    if (c === "," && !quoted) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const KEY_TYPE = /^(ssh-|ecdsa-|sk-|rsa-)|-cert-v01@openssh\.com$/;

function applyOptions(entry: AllowedSigner, text: string): void {
  for (const opt of splitOptions(text)) {
    const eq = opt.indexOf("=");
    const name = (eq < 0 ? opt : opt.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? undefined : unquote(opt.slice(eq + 1));
    if (name === "cert-authority" && value === undefined) entry.certAuthority = true;
    else if (name === "namespaces" && value !== undefined) entry.namespaces = value;
    else if (name === "valid-after" && value !== undefined) entry.validAfter = parseTimestamp(value);
    else if (name === "valid-before" && value !== undefined) entry.validBefore = parseTimestamp(value);
    else throw new AllowedSignersError(`unsupported option "${opt}"`);
  }
}

export function parseAllowedSigners(text: string): { signers: AllowedSigner[]; problems: ParseProblem[] } {
  const signers: AllowedSigner[] = [];
  const problems: ParseProblem[] = [];
  text.split("\n").forEach((rawLine, index) => {
    const line = rawLine.replace(/\r$/, "");
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    try {
      const principals = field(line, 0);
      if (principals.value === "") throw new AllowedSignersError("no principals");
      const entry: AllowedSigner = {
        line: index + 1,
        principals: unquote(principals.value),
        certAuthority: false,
        keyText: "",
        comment: "",
      };
      let next = field(line, principals.next);
      if (!KEY_TYPE.test(next.value)) {
        applyOptions(entry, next.value);
        next = field(line, next.next);
      }
      const type = next.value;
      const data = field(line, next.next);
      if (type === "" || data.value === "") throw new AllowedSignersError("no key");
      entry.keyText = `${type} ${data.value}`;
      entry.comment = line.slice(data.next).trim();
      const forName = /(?:^|\s)gjc-for=(\S+)/.exec(entry.comment);
      if (forName) entry.forNames = unquote(forName[1]);
      if (isCertificateType(type)) {
        entry.unusable = "a certificate cannot be listed; list its CA's key with cert-authority, or the plain key";
      } else {
        try {
          entry.key = parsePublicKeyLine(entry.keyText).key;
        } catch (error) {
          if (!(error instanceof KeyFormatError)) throw error;
          entry.unusable = error.message;
        }
      }
      signers.push(entry);
    } catch (error) {
      if (!(error instanceof AllowedSignersError)) throw error;
      problems.push({ line: index + 1, message: error.message });
    }
  });
  return { signers, problems };
}

/** The line as ssh-keygen would read it, with gjc's name restriction in the comment. */
export function formatAllowedSigner(o: {
  identity: string;
  certAuthority?: boolean;
  namespaces?: string;
  keyText: string;
  forNames?: string;
  comment?: string;
}): string {
  const principals = /[\s"]/.test(o.identity) ? `"${o.identity.replace(/"/g, "")}"` : o.identity;
  const list = [
    ...(o.certAuthority ? ["cert-authority"] : []),
    ...(o.namespaces !== undefined ? [`namespaces="${o.namespaces}"`] : []),
  ];
  const options = list.length > 0 ? ` ${list.join(",")}` : "";
  const comment = [o.forNames !== undefined ? `gjc-for=${o.forNames}` : "", o.comment ?? ""]
    .filter((s) => s !== "")
    .join(" ");
  return `${principals}${options} ${o.keyText}${comment !== "" ? ` ${comment}` : ""}`;
}

/** A certificate under a cert-authority line: the principal it is trusted as, or why it is not. */
function certificateVerdict(
  cert: SshCertificate,
  line: AllowedSigner,
  now: Date,
): { principal?: string; reason?: string } {
  const problem = certificateProblem(cert, now);
  if (problem !== undefined) return { reason: `its certificate cannot be used: ${problem}` };
  const principal = cert.principals.find((p) => matchPatternList(p, line.principals));
  if (principal === undefined)
    return {
      reason: `no principal of its certificate (${cert.principals.join(", ") || "none"}) matches line ${line.line}'s "${line.principals}"`,
    };
  return { principal };
}

export type SignerVerdict =
  | { kind: "allowed"; entry: AllowedSigner; identity: string }
  | { kind: "restricted"; entry: AllowedSigner; reason: string }
  | { kind: "unknown" };

/**
 * What the lines say about `key` signing `bundleName` under `namespace` at `now`: a line that
 * names the key and allows all three wins; else a line that names the key but restricts it
 * (another namespace, outside its validity, another bundle name) explains the refusal.
 */
export function judgeSigner(
  signers: readonly AllowedSigner[],
  key: SshPublicKey,
  namespace: string,
  bundleName: string,
  now: Date,
  certificate?: SshCertificate,
): SignerVerdict {
  let restricted: SignerVerdict | undefined;
  for (const s of signers) {
    // A plain line names the signing key itself; a cert-authority line the CA of the signature's certificate.
    const named = s.certAuthority ? certificate?.ca : certificate ? undefined : key;
    if (!s.key || !named || Buffer.compare(s.key.blob, named.blob) !== 0) continue;
    const cert = certificate ? certificateVerdict(certificate, s, now) : undefined;
    const reason =
      cert?.reason ??
      (s.namespaces !== undefined && !matchPatternList(namespace, s.namespaces)
        ? `its line ${s.line} allows only the namespaces "${s.namespaces}"`
        : s.validAfter && now < s.validAfter
          ? `its line ${s.line} is valid only after ${s.validAfter.toISOString()}`
          : s.validBefore && now > s.validBefore
            ? `its line ${s.line} expired at ${s.validBefore.toISOString()} (valid-before)`
            : s.forNames !== undefined && !matchPatternList(bundleName, s.forNames)
              ? `its line ${s.line} allows it to sign only bundles named "${s.forNames}"`
              : undefined);
    const identity = cert?.principal ?? s.principals;
    if (reason === undefined) return { kind: "allowed", entry: s, identity };
    restricted ??= { kind: "restricted", entry: s, reason };
  }
  return restricted ?? { kind: "unknown" };
}
