import { checkedAddresses } from "./checked-addresses.ts";
import { sourceError } from "./errors.ts";
import { redactUrl } from "./redact.ts";
import { streamChunks } from "./stream-chunks.ts";
import type { FetchOptions, NetworkOverrides } from "./types.ts";

const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 120_000;
/** Downloads at least this large report progress. */
const PROGRESS_FROM_BYTES = 1024 * 1024;

/**
 * Downloads an https archive into memory under a byte budget, following DESIGN item 11 (d):
 * the URL policy and every DNS answer are checked before connecting, the connection goes to
 * a checked address with the name kept for SNI and the certificate, env proxies cannot
 * reroute it, and redirects are followed only within the same https origin (re-checked at
 * every hop).
 */
export async function downloadArchive(rawUrl: string, maxBytes: number, opts: FetchOptions): Promise<Uint8Array> {
  const display = redactUrl(rawUrl);
  const signal = AbortSignal.timeout(opts.downloadTimeoutMs ?? DEFAULT_TIMEOUT_MS);
  const origin = new URL(rawUrl).origin;
  let current = rawUrl;
  for (let hop = 0; ; hop++) {
    const url = new URL(current);
    const addresses = await checkedAddresses(url, opts.net, "archive");
    const response = await connect(url, addresses, opts.net, signal, display);
    if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
      await response.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS)
        throw sourceError(
          "source_unreachable",
          `${display} redirected more than ${MAX_REDIRECTS} times.`,
          "Use the final URL of the archive.",
        );
      let next: URL;
      try {
        next = new URL(response.headers.get("location") as string, url);
      } catch {
        throw sourceError(
          "source_unreachable",
          `${display} answered with an invalid redirect.`,
          "Use the final URL of the archive.",
        );
      }
      if (next.origin !== origin) {
        throw sourceError(
          "security_policy",
          `${display} redirects to another origin (${redactUrl(next.origin)}); only same-origin redirects are followed.`,
          "Use the final URL of the archive, after checking that you trust that host.",
        );
      }
      current = next.href;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw sourceError(
        "source_unreachable",
        `${display} answered HTTP ${response.status}.`,
        "Check the URL and that the archive is published.",
        { status: response.status },
      );
    }
    return readBounded(response, maxBytes, display, opts.onProgress, signal);
  }
}

/**
 * A file that may be published beside an archive (`<url>.sig`): fetched under the same rules,
 * undefined when the server answers 404.
 */
export async function downloadOptional(
  rawUrl: string,
  maxBytes: number,
  opts: FetchOptions,
): Promise<Uint8Array | undefined> {
  try {
    return await downloadArchive(rawUrl, maxBytes, opts);
  } catch (error) {
    if ((error as { details?: { status?: number } }).details?.status === 404) return undefined;
    throw error;
  }
}

/** Tries each checked address in turn; the URL carries the address, the name goes in Host and SNI. */
async function connect(
  url: URL,
  addresses: string[],
  net: NetworkOverrides | undefined,
  signal: AbortSignal,
  display: string,
): Promise<Response> {
  let lastError: unknown;
  const isName = !/^[0-9.]+$/.test(url.hostname) && !url.hostname.startsWith("[");
  for (const address of addresses) {
    const hostPart = address.includes(":") ? `[${address}]` : address;
    const pinned = `https://${hostPart}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`;
    try {
      return await fetch(pinned, {
        headers: { Host: url.host, "Accept-Encoding": "identity", "User-Agent": "gjc" },
        redirect: "manual",
        proxy: false,
        decompress: false,
        tls: { ...(isName ? { serverName: url.hostname } : {}), ...(net?.ca ? { ca: net.ca } : {}) },
        signal,
      } as RequestInit);
    } catch (error) {
      if (signal.aborted)
        throw sourceError(
          "source_unreachable",
          `Downloading ${display} timed out.`,
          "Check the network, then run the command again.",
        );
      lastError = error;
    }
  }
  const why =
    lastError instanceof Error ? ((lastError as NodeJS.ErrnoException).code ?? lastError.message) : String(lastError);
  throw sourceError(
    "source_unreachable",
    `${display} cannot be reached (${why}).`,
    "Check the URL and your network; TLS certificates must match the host name.",
  );
}

async function readBounded(
  response: Response,
  maxBytes: number,
  display: string,
  onProgress: ((m: string) => void) | undefined,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw sourceError(
      "source_too_large",
      `${display} is ${declared} bytes, over the ${maxBytes}-byte archive budget.`,
      "Keep large or generated files out of the bundle.",
      { limit: "archive_bytes" },
    );
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  const report = Number.isFinite(declared) ? declared >= PROGRESS_FROM_BYTES : true;
  let nextReport = PROGRESS_FROM_BYTES;
  const readError = () =>
    signal.aborted
      ? sourceError(
          "source_unreachable",
          `Downloading ${display} timed out.`,
          "Check the network, then run the command again.",
        )
      : sourceError("source_unreachable", `The download of ${display} broke off.`, "Run the command again.");
  for await (const chunk of streamChunks(response.body as ReadableStream<Uint8Array>, readError)) {
    received += chunk.length;
    if (received > maxBytes) {
      throw sourceError(
        "source_too_large",
        `${display} is larger than the ${maxBytes}-byte archive budget.`,
        "Keep large or generated files out of the bundle.",
        { limit: "archive_bytes" },
      );
    }
    chunks.push(chunk);
    if (report && onProgress && received >= nextReport) {
      onProgress(`Downloading ${display}: ${mib(received)}${Number.isFinite(declared) ? ` of ${mib(declared)}` : ""}`);
      nextReport += Number.isFinite(declared)
        ? Math.max(PROGRESS_FROM_BYTES, Math.ceil(declared / 10))
        : 4 * PROGRESS_FROM_BYTES;
    }
  }
  if (Number.isFinite(declared) && received !== declared) {
    throw sourceError(
      "source_unreachable",
      `The download of ${display} ended after ${received} of ${declared} bytes.`,
      "Run the command again.",
    );
  }
  const out = new Uint8Array(received);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
