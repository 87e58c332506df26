import { packBundle } from "../../authoring/pack.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";

export default defineVerb({
  name: "plugin pack",
  description: "Make a reproducible .tgz of exactly the files install would copy, and print its SHA-256",
  schema: "gjc/pack@1",
  args: {
    dir: { type: "positional", description: "Bundle directory", required: true },
    output: { type: "string", alias: "o", description: "Archive to write (default: <name>-<version>.tgz next to the bundle)", valueHint: "file.tgz" },
    ...jsonArg,
  },
  examples: ["gjc plugin pack ./my-bundle", "gjc plugin pack . -o ../my-bundle.tgz"],
  async run({ args, ctx }) {
    const r = await packBundle(ctx, args.dir, args.output);
    const human = [
      `Packed ${r.family === "c2" ? "C2" : "GJC"} bundle ${ctx.out.bold(`${r.name} ${r.version}`)}: ${r.entries.length} files, ${r.bytes} bytes`,
      `  ${r.file}`,
      `  sha256 ${r.sha256}`,
      "",
      `Install it with: gjc plugin install ${r.file} --sha256 ${r.sha256}${r.family === "gjc" ? " --user" : ""}`,
    ].join("\n");
    return { json: { schema: "gjc/pack@1", ok: true, ...r }, human };
  },
});
