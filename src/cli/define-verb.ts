import type { ArgsDef, CommandContext, CommandDef, ParsedArgs } from "citty";
import type { Context } from "../core/context.ts";
import type { ExitCodeValue } from "../core/exit-codes.ts";
import { declaredArgs } from "./args.ts";

/** What a verb hands back: the JSON document, the human text, and the exit class. */
export interface VerbOutcome {
  /** Printed as the single `--json` document. Must carry `schema: "gjc/<verb>@1"`. */
  json: { schema: string } & Record<string, unknown>;
  /** Printed on stdout without `--json`. */
  human: string;
  exit?: ExitCodeValue;
}

export interface VerbInput<A extends ArgsDef> {
  args: ParsedArgs<A>;
  /** Positionals after the declared ones, for verbs that accept a rest (`activate <skill> [args…]`). */
  rest: string[];
  /** Every value of each option the verb declared repeatable, in order. */
  repeated: Record<string, string[]>;
  ctx: Context;
}

/** What main passes a verb through citty's `data`: what citty's parsed arguments cannot carry. */
export interface VerbData {
  ctx: Context;
  rest: string[];
  /** Every value of each repeatable option (`--read a --read b`). */
  repeated?: Record<string, string[]>;
}

/** gjc's extras on a verb, beside citty's `meta`, `args` and `run`. */
interface VerbExtras {
  /** `gjc/<schema>@1` names the JSON document (also of the error envelope). */
  schema: string;
  /** Accept extra positionals (passed through `rest`). */
  rest?: string;
  /**
   * With `rest`: once the declared positionals are filled, options this verb does not know go
   * to `rest` as written instead of being refused (`activate ralplan --design topic`).
   */
  passthrough?: boolean;
  /** String options that may be given more than once; their values arrive in `repeated`. */
  repeatable?: readonly string[];
  examples?: string[];
}

/** What a command file writes. */
export interface VerbSpec<A extends ArgsDef = ArgsDef> extends VerbExtras {
  /** Full command path, e.g. `plugin validate`. */
  name: string;
  description: string;
  args: A;
  run(input: VerbInput<A>): Promise<VerbOutcome>;
}

/** A verb as a citty command: the default export of every module in `commands/`. */
export interface VerbCommand<A extends ArgsDef = ArgsDef> extends CommandDef<A>, VerbExtras {
  meta: { name: string; description: string };
  args: A;
  run(context: CommandContext<A>): Promise<VerbOutcome>;
}

/**
 * Builds a verb's citty command. main runs it with citty's `runCommand` after gjc's strict
 * layer (src/cli/args.ts) screened the tokens; its `run` hands the verb plain values of the
 * declared names and the `data` main passed. Keeps the args definition literal so `args.x` is typed.
 */
export function defineVerb<const A extends ArgsDef>({
  name,
  description,
  run,
  ...extras
}: VerbSpec<A>): VerbCommand<A> {
  return {
    meta: { name, description },
    ...extras,
    run: ({ args, data }: CommandContext<A>) => {
      const { ctx, rest, repeated = {} } = data as VerbData;
      return run({ args: declaredArgs(args, extras.args) as ParsedArgs<A>, rest, repeated, ctx });
    },
  };
}

/** Flags every verb accepts. */
export const jsonArg = {
  json: { type: "boolean", description: "Print one JSON document on stdout" },
} as const satisfies ArgsDef;

export const scopeArgs = {
  user: { type: "boolean", description: "Act on the user scope" },
  project: { type: "boolean", description: "Act on the project scope of the current directory" },
} as const satisfies ArgsDef;

/** Picks the family when a name is installed in both (`--family gjc|c2`). */
export const familyArg = {
  family: { type: "string", description: "Only bundles of this family (gjc or c2)", valueHint: "gjc|c2" },
} as const satisfies ArgsDef;
