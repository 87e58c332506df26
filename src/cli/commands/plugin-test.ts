import { testBundle } from "../../authoring/conformance.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { timeoutOption } from "../options.ts";

export default defineVerb({
  name: "plugin test",
  description: "Run conformance checks on a bundle folder without installing it (handshake, calls, module loads, MCP probes)",
  schema: "gjc/test@1",
  args: {
    dir: { type: "positional", description: "Bundle directory", required: true },
    args: { type: "string", description: 'C2: sample arguments by command id, e.g. \'{"ns.cmd": {"x": 1}}\' (default: gjc.test.json)', valueHint: "json" },
    timeout: { type: "string", description: "Per-step timeout in milliseconds (handshake, call, load, probe)", valueHint: "ms" },
    ...jsonArg,
  },
  examples: ["gjc plugin test ./my-plugin", `gjc plugin test ./my-plugin --args '{"demo.greet": {"name": "Ada"}}'`],
  async run({ args, ctx }) {
    const timeoutMs = timeoutOption(args.timeout);
    const r = await testBundle(ctx, args.dir, { args: args.args, timeoutMs });
    const s = ctx.out;
    const lines = [`${r.ok ? s.green("✓ conformant") : s.red("✗ not conformant")} ${r.family} bundle ${s.bold(`${r.name ?? "?"} ${r.version ?? ""}`.trim())}`];
    for (const c of r.checks) {
      const mark = c.skipped ? s.dim("-") : c.ok ? s.green("✓") : s.red("✗");
      const latency = c.latencyMs !== undefined ? s.dim(` (${c.latencyMs} ms)`) : "";
      lines.push(`  ${mark} ${c.rule}${latency}${c.code && !c.ok ? s.dim(` [${c.code}]`) : ""}: ${c.message}`);
      if (c.hint && (!c.ok || c.skipped)) lines.push(`      ${s.cyan("hint")}: ${c.hint}`);
    }
    return { json: { schema: "gjc/test@1", ...r }, human: lines.join("\n"), exit: r.ok ? ExitCode.ok : ExitCode.failed };
  },
});
