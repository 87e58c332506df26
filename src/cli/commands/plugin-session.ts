import { usageError } from "../../core/errors.ts";
import { timeoutOption } from "../options.ts";
import { runSession } from "../../gjcsession/document.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeSession } from "../render/session.ts";

export default defineVerb({
  name: "plugin session",
  description:
    "Build the GJC session-start plan: verified bundles, appendices, advertisements, modules and MCP servers",
  schema: "gjc/session@1",
  args: {
    project: {
      type: "string",
      description: "Project directory whose .gjc/gjc-plugins is the project scope (default: the current directory)",
      valueHint: "dir",
    },
    family: {
      type: "string",
      description: "gjc (default): the GJC session plan; c2: what a host loads from enabled C2 bundles",
      valueHint: "gjc|c2",
    },
    "check-runtime": {
      type: "boolean",
      description:
        "Check every active tool and hook module now (default: only content never checked before; --no-check-runtime skips it)",
    },
    "host-tools": {
      type: "string",
      description:
        "Comma-separated tool names of the host a bundle tool may not take (default: the GJC agent's built-in tools)",
      valueHint: "names",
    },
    timeout: {
      type: "string",
      description: "Milliseconds one module may take under --check-runtime (default 5000)",
      valueHint: "ms",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin session --json",
    "gjc plugin session --project ./repo --check-runtime",
    "gjc plugin session --family c2 --json",
  ],
  async run({ args, ctx }) {
    if (args.family !== undefined && args.family !== "gjc" && args.family !== "c2")
      throw usageError(`--family must be gjc or c2, not "${args.family}".`);
    if (args.family === "c2") {
      const { c2SessionDocument } = await import("../../c2session/document.ts");
      const { describeC2Session } = await import("../render/c2-session.ts");
      const doc = await c2SessionDocument(ctx, { project: args.project });
      return { json: { ...doc }, human: describeC2Session(ctx.out, doc), exit: doc.ok ? 0 : 3 };
    }
    const timeout = timeoutOption(args.timeout);
    const check = args["check-runtime"] as boolean | undefined;
    const hostTools =
      typeof args["host-tools"] === "string"
        ? args["host-tools"]
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean)
        : undefined;
    const r = await runSession(
      ctx,
      {
        project: args.project,
        checkRuntime: check,
        runtimeTimeoutMs: timeout,
        ...(hostTools ? { hostToolNames: hostTools } : {}),
      },
      { noteC2: !args.json },
    );
    return { json: r.json, human: describeSession(r.result, ctx.out, r.c2Installed), exit: r.exit };
  },
});
