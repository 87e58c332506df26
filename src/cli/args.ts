import type { ArgsDef } from "citty";
import { usageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";

export interface ParsedInvocation {
  args: Record<string, any> & { _: string[] };
  rest: string[];
}

interface Flag {
  type: "boolean" | "string" | "enum";
  /** The declared name (values are stored under it and under every alias). */
  name: string;
}

/**
 * Parses a verb's tokens against its `ArgsDef` in one pass (the definitions keep citty's
 * shape, but citty's parser is not loaded: it costs ~1 ms of start-up and ignores what it
 * does not know). Unknown options are refused with a suggestion, string options must carry a
 * value, enum values are checked, positionals are counted and named.
 *
 * Values: `--flag` is true, `--flag=false` false (any other inline value true), `--no-flag`
 * false and wins over `--flag` wherever it stands; `--name value` and `--name=value` give
 * strings (the next token is the value even when it starts with `-`) and the last occurrence
 * wins; declared defaults fill what is absent. Everything after `--` is positional. With `rest` and `passthrough`, unknown options
 * after the declared positionals are kept in `rest` as written.
 */
export function parseVerbArgs(argv: string[], defs: ArgsDef, opts: { commandName: string; rest?: string; passthrough?: boolean }): ParsedInvocation {
  const flags = new Map<string, Flag>();
  const aliasesOf = new Map<string, string[]>();
  const positionals: { name: string; required: boolean; default?: unknown }[] = [];
  const values: Record<string, any> = {};
  // `--no-flag` wins over `--flag` wherever they stand (as with citty, whose definitions these are).
  const negatedNames = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    const type = def.type ?? "string";
    if (type === "positional") {
      positionals.push({ name, required: def.required !== false, default: def.default });
      continue;
    }
    const flag: Flag = { type, name };
    flags.set(name, flag);
    const aliases = "alias" in def && def.alias !== undefined ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    for (const a of aliases) flags.set(a, flag);
    aliasesOf.set(name, aliases);
    if (def.default !== undefined) values[name] = def.default;
  }
  const positionalTokens: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") {
      positionalTokens.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith("-") || token === "-") {
      positionalTokens.push(token);
      continue;
    }
    const body = token.startsWith("--") ? token.slice(2) : token.slice(1);
    const eq = body.indexOf("=");
    const name = eq === -1 ? body : body.slice(0, eq);
    let flag = flags.get(name);
    let negated = false;
    if (!flag && name.startsWith("no-")) {
      const target = flags.get(name.slice(3));
      if (target?.type === "boolean") {
        flag = target;
        negated = true;
      }
    }
    if (!flag && opts.passthrough && opts.rest && positionalTokens.length >= positionals.length) {
      positionalTokens.push(token);
      continue;
    }
    if (!flag) {
      throw usageError(
        `Unknown option ${token.split("=")[0]} for "gjc ${opts.commandName}".${didYouMean(`--${name}`, longNamesOf(flags))}`,
        `Run "gjc ${opts.commandName} --help" to see the options it accepts.`,
        "unknown_option",
      );
    }
    if (flag.type === "boolean") {
      if (negated) negatedNames.add(flag.name);
      else values[flag.name] = eq === -1 || body.slice(eq + 1) !== "false";
      continue;
    }
    let value: string;
    if (eq !== -1) {
      value = body.slice(eq + 1);
    } else {
      if (i + 1 >= argv.length) {
        throw usageError(`Option --${flag.name} needs a value.`, `Write it as --${flag.name} <value>.`, "missing_option_value");
      }
      value = argv[++i];
    }
    if (flag.type === "enum") validateEnum(defs[flag.name] as { options?: string[] }, flag.name, value);
    values[flag.name] = value;
  }

  // Plain loops here and below: each JS-implemented array builtin (find, forEach…) costs tens
  // of µs on its first call, and this runs once per invocation.
  let missing: (typeof positionals)[number] | undefined;
  for (let i = positionalTokens.length; i < positionals.length && !missing; i++) if (positionals[i].required) missing = positionals[i];
  if (missing) {
    throw usageError(`Missing the <${missing.name}> argument for "gjc ${opts.commandName}".`, `Run "gjc ${opts.commandName} --help" for an example.`, "missing_argument");
  }
  const rest = positionalTokens.slice(positionals.length);
  if (rest.length > 0 && !opts.rest) {
    throw usageError(`Unexpected argument "${rest[0]}" for "gjc ${opts.commandName}".`, `Run "gjc ${opts.commandName} --help" to see what it takes.`, "unexpected_argument");
  }
  for (const name of negatedNames) values[name] = false;
  for (let i = 0; i < positionals.length; i++) values[positionals[i].name] = i < positionalTokens.length ? positionalTokens[i] : positionals[i].default;
  // Aliases read the same value as their option (`args.o` and `args.output`).
  for (const [name, aliases] of aliasesOf) for (const a of aliases) if (values[name] !== undefined) values[a] = values[name];
  const args = values as Record<string, any> & { _: string[] };
  args._ = positionalTokens;
  return { args, rest };
}

function longNamesOf(flags: Map<string, Flag>): string[] {
  return [...flags.keys()].filter((k) => k.length > 1).map((k) => `--${k}`);
}

function validateEnum(def: { options?: string[] }, name: string, value: string): void {
  const options = def.options ?? [];
  if (!options.includes(value)) {
    throw usageError(
      `Option --${name} must be one of ${options.join(", ")}, not "${value}".${didYouMean(value, options)}`,
      undefined,
      "invalid_option_value",
    );
  }
}
