import type { ArgsDef, ParsedArgs } from "citty";
import type { Context } from "../core/context.ts";
import type { ExitCodeValue } from "../core/exit-codes.ts";

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
  ctx: Context;
}

export interface VerbDef<A extends ArgsDef = ArgsDef> {
  /** Full command path, e.g. `plugin validate`. */
  name: string;
  description: string;
  /** `gjc/<schema>@1` names the JSON document. */
  schema: string;
  args: A;
  /** Accept extra positionals (passed through `rest`). */
  rest?: string;
  /**
   * With `rest`: once the declared positionals are filled, options this verb does not know go
   * to `rest` as written instead of being refused (`activate ralplan --design topic`).
   */
  passthrough?: boolean;
  examples?: string[];
  run(input: VerbInput<A>): Promise<VerbOutcome>;
}

/** Typed identity helper: keeps the args definition literal so `args.x` is typed. */
export function defineVerb<const A extends ArgsDef>(def: VerbDef<A>): VerbDef<A> {
  return def;
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
