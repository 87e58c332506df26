import { withCliHost } from "../../c2host/cli-host.ts";
import { probeLanguageServer } from "../../c2host/lsp.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { projectArg } from "./plugin-run-options.ts";
import { describeLspProbe } from "../render/c2-runtime.ts";
import { sandboxWarnings } from "../sandbox-warnings.ts";

export default defineVerb({
  name: "plugin lsp probe",
  description: "Start a C2 language server, run LSP initialize, print its capabilities, stop it",
  schema: "gjc/plugin-lsp-probe@1",
  args: {
    server: { type: "positional", description: "<plugin>/<server>", required: true },
    ...projectArg,
    ...jsonArg,
  },
  examples: ["gjc plugin lsp probe zig-tools/zls --project ."],
  async run({ args, ctx }) {
    const r = await withCliHost(ctx, (host) =>
      probeLanguageServer(host, args.server, { project: args.project, cwd: ctx.cwd, env: ctx.env }),
    );
    return {
      json: { schema: "gjc/plugin-lsp-probe@1", ok: true, ...r, ...sandboxWarnings() },
      human: describeLspProbe(r),
    };
  },
});
