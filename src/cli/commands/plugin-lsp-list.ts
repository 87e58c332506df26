import { withCliHost } from "../../c2host/cli-host.ts";
import { listLanguageServers } from "../../c2host/lsp.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { projectArg } from "./plugin-run-options.ts";
import { describeLanguageServers } from "../render/c2-runtime.ts";

export default defineVerb({
  name: "plugin lsp list",
  description: "List C2 language servers and which one serves each language (conflicts fail closed)",
  schema: "gjc/plugin-lsp-list@1",
  args: { ...projectArg, ...jsonArg },
  examples: ["gjc plugin lsp list", "gjc plugin lsp list --project . --json"],
  async run({ args, ctx }) {
    const r = await withCliHost(ctx, async (host) => listLanguageServers(host, args.project));
    return { json: { schema: "gjc/plugin-lsp-list@1", ok: true, ...r }, human: describeLanguageServers(r, ctx.out) };
  },
});
