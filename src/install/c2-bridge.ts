import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

/** What a verb returns (kept structural so core does not import the CLI layer). */
export interface BridgeOutcome {
  json: { schema: string } & Record<string, unknown>;
  human: string;
  exit?: 0 | 1 | 2 | 3 | 4 | 5 | 70;
}

export type C2Operation = "uninstall" | "enable" | "disable" | "inspect" | "verify" | "upgrade";

/**
 * Name-based verbs without --user/--project act on the C2 bundle of that name, through the
 * C2 lifecycle (src/c2store/lifecycle.ts), loaded only when a C2 bundle is meant.
 */
export async function c2Verb(ctx: Context, op: C2Operation, params: { name?: string; [k: string]: unknown }): Promise<BridgeOutcome> {
  const c2 = await import("../c2store/lifecycle.ts");
  const render = await import("../cli/render/c2-lifecycle.ts");
  const name = params.name ?? "";
  switch (op) {
    case "uninstall": {
      const r = await c2.uninstallC2(ctx, name, { keepData: Boolean(params.keepData), dryRun: Boolean(params.dryRun) });
      return { json: { schema: "gjc/uninstall@1", ok: true, ...r }, human: render.describeC2Uninstall(r) };
    }
    case "enable":
    case "disable": {
      if (params.surface !== undefined) {
        throw new GjcError({
          code: "unsupported_surface",
          message: "--surface applies to GJC bundles; a C2 bundle's components are governed by its policy.",
          hint: `Use "gjc plugin policy plan ${name} --state ${op}d --component <kind:id>", or add --user/--project for a GJC bundle.`,
          exit: ExitCode.usage,
        });
      }
      const r = await c2.setC2Enabled(ctx, name, op === "enable");
      const { flagOutcome } = await import("../cli/render/c2-flag.ts");
      return flagOutcome(ctx, `gjc/${op}@1`, r) as BridgeOutcome;
    }
    case "upgrade": {
      const r = await c2.upgradeC2(ctx, name, { dryRun: Boolean(params.dryRun) });
      return { json: { schema: "gjc/upgrade@1", ok: true, ...r }, human: render.describeC2Install(ctx, r) };
    }
    case "inspect": {
      const r = c2.inspectC2(ctx, name);
      return { json: { schema: "gjc/inspect@1", ok: true, family: "c2", bundle: r }, human: render.describeC2Inspect(r) };
    }
    case "verify": {
      const r = await c2.verifyC2(ctx, params.name);
      return { json: { schema: "gjc/verify@1", ...r }, human: render.describeC2Verify(r), exit: r.ok ? 0 : 3 };
    }
  }
}
