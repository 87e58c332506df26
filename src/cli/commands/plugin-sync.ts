import { requireScope } from "../../store/resolve.ts";
import { defineVerb, jsonArg, scopeArgs } from "../define-verb.ts";

export default defineVerb({
  name: "plugin sync",
  description:
    "Make the scope exactly its plugins.lock.json: install missing bundles at their pins, repair drifted ones, report (or --prune) the rest",
  schema: "gjc/sync@1",
  args: {
    ...scopeArgs,
    frozen: { type: "boolean", description: "CI: never write the lock; anything the lock does not settle is an error" },
    offline: {
      type: "boolean",
      description: "Use only the content cache; fail (exit 4, offline_miss) naming what is missing",
    },
    prune: { type: "boolean", description: "Remove installed bundles the lock does not name" },
    "dry-run": { type: "boolean", description: "Fetch and check everything, show what would change, change nothing" },
    from: {
      type: "string",
      description: "Install the set from an archive made by gjc plugin lock --export (no network at all)",
      valueHint: "set.tgz",
    },
    "require-signed": {
      type: "boolean",
      description: "Refuse bundles without a valid gjc-plugin signature (a lock can say requireSigned: true)",
    },
    "accept-signer": {
      type: "boolean",
      description: "Accept content signed by another key than the lock's (never with --frozen)",
    },
    trust: {
      type: "string",
      description: "C2: confirm trust for these bundles the set expects trusted (comma-separated names)",
      valueHint: "name[,name]",
    },
    grant: {
      type: "string",
      description:
        "Confirm the sandbox grants the set gives these bundles beyond what is recorded (comma-separated names)",
      valueHint: "name[,name]",
    },
    ...jsonArg,
  },
  examples: [
    "gjc plugin sync --project --frozen",
    "gjc plugin sync --user --offline",
    "gjc plugin sync --user --trust hello-runtime",
    "gjc plugin sync --project --from team-set.tgz",
  ],
  async run({ args, ctx }) {
    const scope = requireScope(args, "gjc plugin sync");
    const { syncScope } = await import("../../sets/sync.ts");
    const { describeSync } = await import("../render/sets.ts");
    const trust =
      args.trust === undefined
        ? []
        : args.trust
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "");
    const grant =
      args.grant === undefined
        ? []
        : args.grant
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "");
    const options = {
      frozen: args.frozen,
      offline: args.offline,
      prune: args.prune,
      dryRun: args["dry-run"],
      trust,
      grant,
      requireSigned: args["require-signed"],
      acceptSigner: args["accept-signer"],
    };
    const r =
      args.from === undefined
        ? await syncScope(ctx, scope, options)
        : await (await import("../../sets/set-archive.ts")).syncFromSet(ctx, scope, args.from, options);
    const { exit, ...rest } = r;
    return { json: { schema: "gjc/sync@1", ...rest }, human: describeSync(r), exit };
  },
});
