import { defineVerb } from "../define-verb.ts";
import { completionModel } from "../completion/model.ts";
import { bashScript, fishScript, zshScript } from "../completion/shells.ts";

export default defineVerb({
  name: "completion",
  description: "Print a shell completion script generated from the command definitions",
  schema: "gjc/completion@1",
  args: {
    shell: { type: "positional", description: "bash, zsh or fish", required: true },
    json: { type: "boolean", description: "Print the completion model as JSON instead of a script" },
  },
  examples: ["source <(gjc completion bash)", "gjc completion fish | source"],
  async run({ args }) {
    const { usageError } = await import("../../core/errors.ts");
    const generators = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;
    const generate = generators[args.shell as keyof typeof generators];
    if (!generate)
      throw usageError(`No completion for the shell "${args.shell}".`, "Choose bash, zsh or fish.", "unknown_shell");
    const model = await completionModel();
    return {
      json: { schema: "gjc/completion@1", ok: true, shell: args.shell, commands: model },
      human: generate(model),
    };
  },
});
