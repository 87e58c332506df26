import { withCliHost } from "../../c2host/cli-host.ts";
import { defineVerb, jsonArg } from "../define-verb.ts";
import { jsonOption, projectArg, timeoutOption } from "./plugin-run-options.ts";
import { describeRunProgress, pretty } from "../render/c2-runtime.ts";
import { sandboxWarnings } from "../sandbox-warnings.ts";

export default defineVerb({
  name: "plugin run",
  description: "Invoke one C2 runtime command: start its trusted runtime, call it, stop it",
  schema: "gjc/plugin-run@1",
  args: {
    command: { type: "positional", description: "Runtime command id (namespace.verb)", required: true },
    args: { type: "string", description: "Command arguments as JSON", valueHint: "json" },
    ...projectArg,
    timeout: {
      type: "string",
      description: "Give up on the call after this many milliseconds (the runtime is stopped)",
      valueHint: "ms",
    },
    ...jsonArg,
  },
  examples: [
    'gjc plugin run hello.dirty --args \'{"cwd":"/path/to/repo"}\'',
    "gjc plugin run review.run --project . --json",
  ],
  async run({ args, ctx }) {
    const callArgs = jsonOption("args", args.args) ?? null;
    const timeoutMs = timeoutOption(args.timeout);
    const r = await withCliHost(ctx, (host) =>
      host.invoke(args.command, callArgs, { project: args.project, timeoutMs }),
    );
    ctx.log.progress(describeRunProgress(r));
    return {
      json: {
        schema: "gjc/plugin-run@1",
        ok: true,
        command: r.command,
        plugin: r.plugin,
        realm: r.realm,
        result: r.result,
        ...sandboxWarnings(),
      },
      human: pretty(r.result),
    };
  },
});
