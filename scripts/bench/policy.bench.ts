// MCP URL classifier throughput, in-process: classifyMcpUrl (raw checks, WHATWG parse,
// scheme, host classification) against the bare WHATWG parse of the same URLs, which is the
// floor any correct classifier pays. Prints URLs a second for both.
import { classifyMcpUrl } from "../../src/policy/url.ts";
import { printTable } from "./_lib.ts";

/** A mix like real manifests plus hostile spellings: names, numeric IPv4 forms, IPv6, tricks. */
const CORPUS = [
  "https://mcp.example.com/mcp",
  "https://api.example.org:8443/v1/mcp?x=1",
  "https://EXAMPLE.com./mcp",
  "https://8.8.8.8/",
  "https://[2606:4700:4700::1111]/",
  "https://[::ffff:8.8.8.8]/",
  "https://127.0.0.1/",
  "https://2130706433/",
  "https://0x7f.1/",
  "https://0177.0.0.1/",
  "https://169.254.169.254/latest",
  "https://10.1.2.3/",
  "https://[::1]/",
  "https://[fe80::1]/",
  "https://[64:ff9b::7f00:1]/",
  "https://[2002:7f00:1::]/",
  "https://[2001:0:4136:e378::1]/",
  "https://localhost/",
  "https://metadata.google.internal/",
  "https://printer.local/",
  "https://user@example.com/",
  "http://example.com/",
  "https://exa\tmple.com/",
  "https:\\\\example.com/",
  "https://[fe80::1%25eth0]/",
];

const rounds = Number(process.env.BENCH_ROUNDS ?? 4000);
const total = rounds * CORPUS.length;

function timeLoop(fn: (u: string) => unknown): number {
  const start = Bun.nanoseconds();
  let sink = 0;
  for (let r = 0; r < rounds; r++) for (const u of CORPUS) if (fn(u)) sink++;
  if (sink < 0) console.log(sink);
  return (Bun.nanoseconds() - start) / 1e6;
}

const parseOnly = (u: string) => {
  try {
    return new URL(u).hostname;
  } catch {
    return undefined;
  }
};

// Warm both paths, then alternate so both see the same machine load.
timeLoop((u) => classifyMcpUrl(u).ok);
timeLoop(parseOnly);
const ours: number[] = [];
const base: number[] = [];
for (let i = 0; i < 5; i++) {
  ours.push(timeLoop((u) => classifyMcpUrl(u).ok));
  base.push(timeLoop(parseOnly));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const oursMs = median(ours);
const baseMs = median(base);
const perSecond = (ms: number) => Math.round(total / (ms / 1000)).toLocaleString("en-US");
printTable(
  `MCP URL classifier, ${total.toLocaleString("en-US")} URLs a run (${CORPUS.length} distinct), median of 5 alternating runs`,
  [
    {
      name: "classifyMcpUrl (stages a-c)",
      oursMs,
      baselineMs: baseMs,
      baseline: "new URL() alone",
      note: `${perSecond(oursMs)} URLs/s (parse alone ${perSecond(baseMs)} URLs/s)`,
    },
  ],
);
