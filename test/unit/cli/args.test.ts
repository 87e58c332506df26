/**
 * The verb argument parser (src/cli/args.ts): citty parses, gjc's strict layer screens the
 * tokens first and hands citty the options, then "--", then the positionals (main runs the
 * verb's citty command with `runCommand` on those tokens; `parse` below does what runCommand
 * and the command's `run` do, with citty's `parseArgs` and `declaredArgs`). The values must
 * be exactly those citty gives for the raw tokens (the screening changes no meaning), and every
 * refusal of the strict layer is checked for its code.
 */
import { describe, expect, test } from "bun:test";
import { parseArgs, runCommand, type ArgsDef } from "citty";
import { declaredArgs, screenVerbArgs } from "../../../src/cli/args.ts";
import { defineVerb, type VerbCommand, type VerbData, type VerbInput } from "../../../src/cli/define-verb.ts";
import { gjc, isGroup, resolveEntry, type GjcCommand } from "../../../src/cli/verbs.ts";
import type { Context } from "../../../src/core/context.ts";
import { isGjcError } from "../../../src/core/errors.ts";
import { ExitCode } from "../../../src/core/exit-codes.ts";

const validate = {
  path: { type: "positional", description: "Bundle", required: true },
  strict: { type: "boolean", description: "Warnings fail" },
  json: { type: "boolean", description: "JSON" },
} as const satisfies ArgsDef;

const uninstall = {
  name: { type: "positional", description: "Name", required: true },
  user: { type: "boolean" },
  project: { type: "boolean" },
  "keep-data": { type: "boolean" },
  "dry-run": { type: "boolean" },
  json: { type: "boolean" },
} as const satisfies ArgsDef;

const pack = {
  dir: { type: "positional", required: true },
  output: { type: "string", alias: "o" },
  json: { type: "boolean" },
} as const satisfies ArgsDef;

const init = {
  dir: { type: "positional", required: true },
  family: { type: "enum", options: ["c2", "gjc"], required: true },
  name: { type: "string" },
  runtime: { type: "enum", options: ["node", "bun"] },
  json: { type: "boolean" },
} as const satisfies ArgsDef;

const verify = {
  name: { type: "positional", required: false },
  timeout: { type: "string", default: "30000" },
  color: { type: "boolean", default: true },
  json: { type: "boolean" },
} as const satisfies ArgsDef;

const activate = {
  skill: { type: "positional", required: true },
  project: { type: "string" },
  phase: { type: "string" },
  json: { type: "boolean" },
} as const satisfies ArgsDef;

const parse = (argv: string[], defs: ArgsDef, extra: { rest?: string; passthrough?: boolean } = {}) => {
  const { tokens, rest } = screenVerbArgs(argv, defs, { commandName: "plugin x", ...extra });
  return { args: declaredArgs(parseArgs(tokens, defs), defs), rest };
};

/** The declared names (and aliases) as citty resolves them. */
function cittyValues(argv: string[], defs: ArgsDef): Record<string, unknown> {
  const parsed = parseArgs(argv, defs) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(defs)) {
    out[name] = parsed[name];
    const aliases = "alias" in def && def.alias ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    for (const a of aliases) out[a] = parsed[a];
  }
  return out;
}

function ourValues(
  argv: string[],
  defs: ArgsDef,
  extra: { rest?: string; passthrough?: boolean } = {},
): Record<string, unknown> {
  const { args } = parse(argv, defs, extra);
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(defs)) {
    out[name] = args[name];
    const aliases = "alias" in def && def.alias ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    for (const a of aliases) out[a] = args[a];
  }
  return out;
}

function refusal(fn: () => unknown): { code: string; exit: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (!isGjcError(error)) throw error;
    return { code: error.code, exit: error.exit, message: error.message };
  }
  throw new Error("expected a usage error");
}

describe("the screened tokens give the values citty gives for the raw tokens", () => {
  const cases: [string, ArgsDef, string[]][] = [
    ["positional only", validate, ["./b"]],
    ["booleans", validate, ["./b", "--strict", "--json"]],
    ["flags before the positional", validate, ["--json", "./b"]],
    ["--no- negation", validate, ["./b", "--no-strict"]],
    ["negation wins over the flag wherever it stands", validate, ["./b", "--no-strict", "--strict"]],
    ["--flag=false", validate, ["./b", "--strict=false"]],
    ["--flag=true", validate, ["./b", "--strict=true"]],
    ["--flag=anything is true", validate, ["./b", "--strict=yes"]],
    ["-- ends the options", validate, ["--", "--strict"]],
    ["a lone dash is a positional", validate, ["-"]],
    ["kebab-case names", uninstall, ["x", "--keep-data", "--dry-run", "--user"]],
    ["negated kebab-case", uninstall, ["x", "--no-dry-run"]],
    ["string with a separate value", pack, ["d", "--output", "a.tgz"]],
    ["string with =", pack, ["d", "--output=a.tgz"]],
    ["empty string with =", pack, ["d", "--output="]],
    ["empty string as next token", pack, ["d", "--output", ""]],
    ["short alias", pack, ["d", "-o", "a.tgz"]],
    ["value that starts with a dash", pack, ["d", "--output", "-weird.tgz"]],
    ["the last occurrence wins", pack, ["d", "-o", "one.tgz", "--output", "two.tgz"]],
    ["enum", init, ["d", "--family", "gjc", "--runtime=bun"]],
    ["enum with name", init, ["d", "--family=c2", "--name", "my-plugin"]],
    ["defaults fill what is absent", verify, []],
    ["defaults are overridden", verify, ["n", "--timeout", "5", "--no-color"]],
    ["optional positional absent", verify, ["--json"]],
    ["activate without extra arguments", activate, ["ralplan", "--phase", "architect"]],
  ];
  for (const [name, defs, argv] of cases) {
    test(name, () => {
      expect(ourValues(argv, defs)).toEqual(cittyValues(argv, defs));
    });
  }

  test("positionals in `_`, including those after --", () => {
    expect(parse(["--", "a"], verify).args._).toEqual(["a"]);
    expect(parse(["n", "--json"], verify).args._).toEqual(["n"]);
    expect(parse(["n", "--json"], verify).args._).toEqual((parseArgs(["n", "--json"], verify) as { _: string[] })._);
  });
});

describe("screenVerbArgs rest and passthrough", () => {
  test("extra positionals go to rest when the verb takes a rest", () => {
    const r = parse(["ralplan", "a", "b", "--phase", "p"], activate, { rest: "args" });
    expect(r.rest).toEqual(["a", "b"]);
    expect(r.args.skill).toBe("ralplan");
    expect(r.args.phase).toBe("p");
  });

  test("passthrough keeps unknown options after the positionals in rest, as written", () => {
    const r = parse(["ralplan", "--design", "the", "storage", "--json"], activate, { rest: "args", passthrough: true });
    expect(r.rest).toEqual(["--design", "the", "storage"]);
    expect(r.args.json).toBe(true);
    expect(r.args.skill).toBe("ralplan");
  });

  test("-- hands known option names to rest too", () => {
    const r = parse(["ralplan", "--phase", "architect", "--", "--design"], activate, {
      rest: "args",
      passthrough: true,
    });
    expect(r.rest).toEqual(["--design"]);
    expect(r.args.phase).toBe("architect");
  });

  test("an unknown option before the positionals are filled is still refused", () => {
    const e = refusal(() => parse(["--design", "ralplan"], activate, { rest: "args", passthrough: true }));
    expect(e.code).toBe("unknown_option");
  });
});

describe("screenVerbArgs refusals", () => {
  test("unknown option, with a suggestion", () => {
    const e = refusal(() => parse(["./b", "--strct"], validate));
    expect(e).toMatchObject({ code: "unknown_option", exit: ExitCode.usage });
    expect(e.message).toContain("--strct");
    expect(e.message).toContain("--strict");
    expect(refusal(() => parse(["./b", "--strct=1"], validate)).message).toContain("Unknown option --strct for");
  });

  test("--no- of a string option is unknown", () => {
    expect(refusal(() => parse(["d", "--no-output"], pack)).code).toBe("unknown_option");
  });

  test("a string option without a value", () => {
    expect(refusal(() => parse(["d", "--output"], pack))).toMatchObject({
      code: "missing_option_value",
      exit: ExitCode.usage,
    });
    expect(refusal(() => parse(["d", "-o"], pack)).code).toBe("missing_option_value");
  });

  test("an enum value outside its options, both spellings", () => {
    expect(refusal(() => parse(["d", "--family", "c3"], init))).toMatchObject({
      code: "invalid_option_value",
      exit: ExitCode.usage,
    });
    const e = refusal(() => parse(["d", "--family=gcj"], init));
    expect(e.code).toBe("invalid_option_value");
    expect(e.message).toContain("gjc");
  });

  test("a missing required positional", () => {
    expect(refusal(() => parse(["--json"], validate))).toMatchObject({
      code: "missing_argument",
      exit: ExitCode.usage,
    });
    expect(refusal(() => parse([], validate)).message).toContain("<path>");
  });

  test("an unexpected extra positional", () => {
    expect(refusal(() => parse(["a", "b"], validate))).toMatchObject({
      code: "unexpected_argument",
      exit: ExitCode.usage,
    });
    expect(refusal(() => parse(["a", "--", "b"], validate)).code).toBe("unexpected_argument");
  });
});

describe("a verb's citty command", () => {
  test("run by citty's runCommand on the screened tokens, it hands the verb the parsed values, rest and ctx", async () => {
    let got: VerbInput<typeof activate> | undefined;
    const verb = defineVerb({
      name: "plugin x",
      description: "a verb",
      schema: "gjc/x@1",
      args: activate,
      rest: "args",
      passthrough: true,
      async run(input) {
        got = input;
        return { json: { schema: "gjc/x@1" }, human: "done" };
      },
    });
    const ctx = {} as Context;
    const argv = ["ralplan", "--design", "the", "--phase=p", "--json"];
    const { tokens, rest } = screenVerbArgs(argv, verb.args, {
      commandName: verb.meta.name,
      rest: verb.rest,
      passthrough: verb.passthrough,
    });
    const data: VerbData = { ctx, rest };
    const { result } = await runCommand(verb, { rawArgs: tokens, data });
    expect(result).toEqual({ json: { schema: "gjc/x@1" }, human: "done" });
    expect(got?.ctx).toBe(ctx);
    expect(got?.rest).toEqual(["--design", "the"]);
    expect({ ...got?.args }).toEqual(parse(argv, activate, { rest: "args", passthrough: true }).args);
    expect(verb.meta).toEqual({ name: "plugin x", description: "a verb" });
  });
});

describe("screenVerbArgs on every registered verb", () => {
  test("each verb with every option given once yields citty's values", async () => {
    const verbs: VerbCommand[] = [];
    const walk = async (command: GjcCommand) => {
      if (!isGroup(command)) return void verbs.push(command);
      for (const entry of Object.values(command.subCommands)) await walk(await resolveEntry(entry));
    };
    await walk(gjc);
    expect(verbs.length).toBeGreaterThan(20);
    for (const def of verbs) {
      const argv: string[] = [];
      for (const [name, a] of Object.entries(def.args)) {
        if (a.type === "positional") argv.unshift(`${name}-value`);
        else if (a.type === "boolean") argv.push(`--${name}`);
        else if (a.type === "enum") argv.push(`--${name}`, (a as { options: string[] }).options[0]);
        else argv.push(`--${name}=${name}-value`);
      }
      const positionalNames = Object.entries(def.args).filter(([, a]) => a.type === "positional");
      argv.splice(0, positionalNames.length, ...positionalNames.map(([n]) => `${n}-value`));
      expect({ verb: def.meta.name, values: ourValues(argv, def.args, def) }).toEqual({
        verb: def.meta.name,
        values: cittyValues(argv, def.args),
      });
    }
  });
});
