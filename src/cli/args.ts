import { parseArgs, type ArgsDef } from "citty";
import { usageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";

export interface ParsedInvocation {
  args: Record<string, any> & { _: string[] };
  rest: string[];
}

/**
 * citty ignores flags it does not know; we refuse them (with a suggestion), check that
 * string flags carry a value, and count positionals, before handing the tokens to citty.
 */
export function parseVerbArgs(argv: string[], defs: ArgsDef, opts: { commandName: string; rest?: string; passthrough?: boolean }): ParsedInvocation {
  const flags = new Map<string, { type: string; name: string }>();
  const positionals: { name: string; required: boolean }[] = [];
  for (const [name, def] of Object.entries(defs)) {
    const type = def.type ?? "string";
    if (type === "positional") {
      positionals.push({ name, required: def.required !== false });
      continue;
    }
    flags.set(name, { type, name });
    const aliases = "alias" in def && def.alias !== undefined ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    for (const a of aliases) flags.set(a, { type, name });
  }
  const longNames = [...flags.keys()].filter((k) => k.length > 1).map((k) => `--${k}`);

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
    if (!flag && name.startsWith("no-")) {
      const negated = flags.get(name.slice(3));
      if (negated?.type === "boolean") flag = negated;
    }
    if (!flag && opts.passthrough && opts.rest && positionalTokens.length >= positionals.length) {
      positionalTokens.push(token);
      continue;
    }
    if (!flag) {
      throw usageError(
        `Unknown option ${token.split("=")[0]} for "gjc ${opts.commandName}".${didYouMean(`--${name}`, longNames)}`,
        `Run "gjc ${opts.commandName} --help" to see the options it accepts.`,
        "unknown_option",
      );
    }
    if (flag.type !== "boolean" && eq === -1) {
      const value = argv[i + 1];
      if (value === undefined) {
        throw usageError(`Option --${flag.name} needs a value.`, `Write it as --${flag.name} <value>.`, "missing_option_value");
      }
      i++;
    }
    if (flag.type === "enum" && eq !== -1) validateEnum(defs[flag.name] as { options?: string[] }, flag.name, body.slice(eq + 1));
    if (flag.type === "enum" && eq === -1) validateEnum(defs[flag.name] as { options?: string[] }, flag.name, argv[i]);
  }

  const missing = positionals.slice(positionalTokens.length).find((p) => p.required);
  if (missing) {
    throw usageError(`Missing the <${missing.name}> argument for "gjc ${opts.commandName}".`, `Run "gjc ${opts.commandName} --help" for an example.`, "missing_argument");
  }
  const rest = positionalTokens.slice(positionals.length);
  if (rest.length > 0 && !opts.rest) {
    throw usageError(`Unexpected argument "${rest[0]}" for "gjc ${opts.commandName}".`, `Run "gjc ${opts.commandName} --help" to see what it takes.`, "unexpected_argument");
  }
  const args = parseArgs(argv, defs) as Record<string, any> & { _: string[] };
  return { args, rest };
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
