import type { ArgsDef } from "citty";
import { usageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";

export interface ScreenedInvocation {
  /** The options as given, then "--", then the positionals: what citty's parser is handed. */
  tokens: string[];
  /** Positionals after the declared ones (for a verb that takes a rest). */
  rest: string[];
  /** Every value of each repeatable option, in order (citty keeps only the last). */
  repeated: Record<string, string[]>;
}

/**
 * gjc's strict layer over a verb's citty `ArgsDef`. citty parses (values, `--no-` negation,
 * aliases, defaults, positionals) when main runs the verb's command, but it keeps what it does
 * not know, so this runs first: an unknown option is refused with a suggestion, a string option
 * must carry a value (the next token is the value even when it starts with `-`), an enum value
 * must be one of its options, required positionals must be there and extra ones are refused
 * unless the verb takes a rest. Everything after `--` is positional. With `rest` and
 * `passthrough`, unknown options after the declared positionals are kept in `rest` as written.
 */
export function screenVerbArgs(
  argv: string[],
  defs: ArgsDef,
  opts: { commandName: string; rest?: string; passthrough?: boolean; repeatable?: readonly string[] },
): ScreenedInvocation {
  const entries = Object.entries(defs);
  const positionals = entries.filter(([, def]) => def.type === "positional");
  const flags = new Map<string, { name: string; type: string }>();
  for (const [name, def] of entries) {
    if (def.type === "positional") continue;
    const aliases = "alias" in def && def.alias !== undefined ? [def.alias].flat() : [];
    for (const spelling of [name, ...aliases]) flags.set(spelling, { name, type: def.type ?? "string" });
  }

  // The strict layer: sort the tokens into options (checked) and positionals (in order).
  const options: string[] = [];
  const positionalTokens: string[] = [];
  const repeated: Record<string, string[]> = Object.fromEntries((opts.repeatable ?? []).map((n) => [n, []]));
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
    const body = token.replace(/^--?/, "");
    const name = body.split("=")[0];
    const negated = name.startsWith("no-") && flags.get(name.slice(3))?.type === "boolean";
    const flag = flags.get(name) ?? (negated ? flags.get(name.slice(3)) : undefined);
    if (!flag) {
      if (opts.passthrough && opts.rest && positionalTokens.length >= positionals.length) {
        positionalTokens.push(token);
        continue;
      }
      throw usageError(
        `Unknown option ${token.split("=")[0]} for "gjc ${opts.commandName}".${didYouMean(
          `--${name}`,
          [...flags.keys()].filter((k) => k.length > 1).map((k) => `--${k}`),
        )}`,
        `Run "gjc ${opts.commandName} --help" to see the options it accepts.`,
        "unknown_option",
      );
    }
    options.push(token);
    if (flag.type === "boolean") continue;
    let value: string;
    if (body.includes("=")) value = body.slice(name.length + 1);
    else if (i + 1 < argv.length) {
      value = argv[++i];
      options.push(value);
    } else {
      throw usageError(
        `Option --${flag.name} needs a value.`,
        `Write it as --${flag.name} <value>.`,
        "missing_option_value",
      );
    }
    if (flag.type === "enum") checkEnum(defs[flag.name] as { options?: string[] }, flag.name, value);
    repeated[flag.name]?.push(value);
  }
  const missing = positionals.slice(positionalTokens.length).find(([, def]) => def.required !== false);
  if (missing) {
    throw usageError(
      `Missing the <${missing[0]}> argument for "gjc ${opts.commandName}".`,
      `Run "gjc ${opts.commandName} --help" for an example.`,
      "missing_argument",
    );
  }
  const rest = positionalTokens.slice(positionals.length);
  if (rest.length > 0 && !opts.rest) {
    throw usageError(
      `Unexpected argument "${rest[0]}" for "gjc ${opts.commandName}".`,
      `Run "gjc ${opts.commandName} --help" to see what it takes.`,
      "unexpected_argument",
    );
  }

  // Positionals go after "--" so citty reads none of them as an option.
  return { tokens: [...options, "--", ...positionalTokens], rest, repeated };
}

/**
 * citty's parsed values as a plain object of the declared names and aliases (citty answers
 * through a Proxy that also invents camelCase and kebab-case spellings).
 */
export function declaredArgs(
  parsed: Record<string, unknown> & { _: string[] },
  defs: ArgsDef,
): Record<string, any> & { _: string[] } {
  const args: Record<string, any> & { _: string[] } = { _: parsed._ };
  for (const [name, def] of Object.entries(defs)) {
    args[name] = parsed[name];
    if ("alias" in def && def.alias !== undefined) for (const alias of [def.alias].flat()) args[alias] = parsed[name];
  }
  return args;
}

function checkEnum(def: { options?: string[] }, name: string, value: string): void {
  const options = def.options ?? [];
  if (!options.includes(value)) {
    throw usageError(
      `Option --${name} must be one of ${options.join(", ")}, not "${value}".${didYouMean(value, options)}`,
      undefined,
      "invalid_option_value",
    );
  }
}
