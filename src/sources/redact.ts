/**
 * Credentials can ride in a URL's userinfo (`https://user:token@host/…`) or its query
 * (`?token=…`, signed download links). Nothing we print or store may carry them.
 */

const SCHEME_USERINFO = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)@/;

/** A URL safe to show: userinfo becomes `***` (an ssh user name without password is kept), query values become `***`. */
export function redactUrl(url: string): string {
  let out = url;
  const m = SCHEME_USERINFO.exec(out);
  if (m) {
    const keep = isSshScheme(m[1]) && !m[2].includes(":");
    out = `${m[1]}${keep ? m[2] : "***"}@${out.slice(m[0].length)}`;
  }
  return redactQuery(out);
}

/**
 * The form stored in records: userinfo removed (git's credential helper supplies it again on
 * upgrade; an ssh user name without password is kept), query values replaced by `***`.
 * `hasRedactedParts` tells a re-fetch that the stored URL is no longer complete.
 */
export function storableUrl(url: string): string {
  let out = url;
  const m = SCHEME_USERINFO.exec(out);
  if (m) {
    const keep = isSshScheme(m[1]) && !m[2].includes(":");
    out = keep ? out : `${m[1]}${out.slice(m[0].length)}`;
  }
  return redactQuery(out);
}

export function hasRedactedParts(url: string): boolean {
  return /[?&][^=&#]*=\*\*\*(?:[&#]|$)/.test(url) || url.includes("://***@");
}

/** Replaces every `scheme://userinfo@` in free text (git's stderr) with `scheme://***@`. */
export function redactText(text: string): string {
  return text
    .replace(/([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/\s@]*@/g, "$1***@")
    .replace(/([?&][^=&#\s]*=)[^&#\s'"]+/g, "$1***");
}

function isSshScheme(prefix: string): boolean {
  const s = prefix.slice(0, -3).toLowerCase();
  return s === "ssh" || s === "git+ssh" || s === "ssh+git";
}

function redactQuery(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const hash = url.indexOf("#", q);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(q + 1, end)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? (pair === "" ? pair : "***") : `${pair.slice(0, eq)}=***`;
    })
    .join("&");
  return `${url.slice(0, q)}?${query}${url.slice(end)}`;
}
