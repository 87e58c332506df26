import { usageError } from "../../core/errors.ts";
import { explainCode, listCodes } from "../../explain/explain.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { describeCodeList } from "../render/explain.ts";

export default defineVerb({
  name: "explain",
  description: "Explain an error or diagnostic code: what it means, an example, how to fix it",
  schema: "gjc/explain@1",
  args: {
    code: { type: "positional", description: "The code shown in brackets, e.g. invalid_manifest", required: false },
    list: { type: "boolean", description: "List every code with a one-line summary" },
    ...jsonArg,
  },
  examples: ["gjc explain security_policy", "gjc explain --list", "gjc explain runtime_mismatch --json"],
  async run({ args, ctx }) {
    const code = args.code as string | undefined;
    if (args.list) {
      if (code !== undefined)
        throw usageError(
          "Give either a code or --list, not both.",
          'Run "gjc explain <code>" or "gjc explain --list".',
          "unexpected_argument",
        );
      const codes = listCodes();
      return { json: { schema: "gjc/explain@1", ok: true, codes }, human: describeCodeList(codes, ctx.out) };
    }
    if (code === undefined)
      throw usageError(
        'Missing the <code> argument for "gjc explain".',
        'Run "gjc explain <code>" with the code shown in brackets, or "gjc explain --list".',
        "missing_argument",
      );
    const page = explainCode(code);
    return { json: { schema: "gjc/explain@1", ok: true, ...page }, human: page.text };
  },
});
