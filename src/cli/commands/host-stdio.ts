import { serveHost } from "../../app/host.ts";
import { usageError } from "../../core/errors.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "host",
  description: "Serve the C2 management plane as newline-delimited JSON-RPC on stdin/stdout",
  schema: "gjc/host@1",
  args: {
    stdio: { type: "boolean", description: "Use stdin/stdout (the only transport)" },
    "idle-ms": {
      type: "string",
      description: "Reap idle project realms after this many milliseconds (default 300000)",
      valueHint: "ms",
    },
    ...jsonArg,
  },
  examples: ["gjc host --stdio"],
  async run({ args, ctx }) {
    if (!args.stdio) throw usageError("gjc host needs a transport.", "Run gjc host --stdio.", "missing_argument");
    let idle: number | undefined;
    if (args["idle-ms"] !== undefined) {
      idle = Number(args["idle-ms"]);
      if (!Number.isInteger(idle) || idle < 1)
        throw usageError(
          `--idle-ms must be a positive integer, not "${args["idle-ms"]}".`,
          undefined,
          "invalid_option_value",
        );
    }
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    try {
      const { served } = await serveHost(ctx, {
        idleMs: idle,
        input: Bun.stdin.stream(),
        write: (line) => void process.stdout.write(`${line}\n`),
        signal: stop.signal,
      });
      return { json: { schema: "gjc/host@1", ok: true, served }, human: "" };
    } finally {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    }
  },
});
