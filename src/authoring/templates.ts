/**
 * Scaffold templates. Each returns bundle-relative paths and their contents; the scaffolder
 * decides nothing about the disk. Everything written here must pass `gjc plugin validate`
 * as is, and a C2 runtime must answer the handshake with exactly its manifest commands.
 */
export interface ScaffoldFile {
  path: string;
  content: string;
  mode?: number;
}

export const AGENT_PLUGINS_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/** The C2 command namespace: a plugin name with dots folded, since command segments cannot hold them. */
export function commandNamespace(name: string): string {
  return name.replace(/\./g, "-");
}

export function c2Template(name: string, runtime: "node" | "bun" | undefined): ScaffoldFile[] {
  const files: ScaffoldFile[] = [];
  const codetwo: Record<string, unknown> = { standardVersion: "1.2.0" };
  if (runtime) {
    const id = `${commandNamespace(name)}.greet`;
    codetwo.runtime = { command: runtime, args: ["plugin.cjs"] };
    codetwo.commands = [
      {
        id,
        title: "Greet someone",
        description: "Returns a greeting; replace it with your own command.",
        argsSchema: { type: "object", additionalProperties: false, properties: { name: { type: "string" } } },
      },
    ];
    files.push({ path: "plugin.cjs", content: c2RuntimeSource(), mode: 0o644 });
    files.push({
      path: "gjc.test.json",
      content: `${JSON.stringify({ commands: { [id]: { args: { name: "world" }, expect: { greeting: "Hello, world!" } } } }, null, 2)}\n`,
    });
  }
  const manifest = {
    $schema: AGENT_PLUGINS_SCHEMA,
    name,
    version: "0.1.0",
    description: `The ${name} plugin.`,
    extensions: { "dev.codetwo": codetwo },
  };
  files.unshift({ path: "plugin.json", content: `${JSON.stringify(manifest, null, 2)}\n` });
  files.push({
    path: `skills/${skillName(name)}/SKILL.md`,
    content: `---\nname: ${skillName(name)}\ndescription: Explains what the ${name} plugin offers and when to use it.\n---\n\n# ${name}\n\nDescribe here, for the agent, when this skill applies and what to do.\n`,
  });
  files.push({ path: "README.md", content: readme(name, "c2", runtime) });
  return files;
}

/** Skill names are stricter than plugin names: no dots. */
function skillName(name: string): string {
  return name.replace(/\./g, "-");
}

/** Where the GJC template's sub-skill binds: a parent, one of its phases, and the flag that activates it. */
export interface SubskillBinding {
  parent: string;
  phase: string;
  activationArg: string;
}

export function gjcTemplate(name: string, binding: SubskillBinding): ScaffoldFile[] {
  const tool = `${name.replace(/[.-]/g, "_")}_hello`;
  const manifest = {
    kind: "gajae-code-plugin",
    name,
    version: "0.1.0",
    subskills: [`subskills/${name}/SKILL.md`],
    tools: [{ name: tool, path: "tools/hello.ts", description: "Says hello; replace it with your own tool." }],
    system_appendix: [{ name: "guidance", path: "prompts/system-appendix.md" }],
  };
  return [
    { path: "gajae-plugin.json", content: `${JSON.stringify(manifest, null, 2)}\n` },
    {
      path: `subskills/${name}/SKILL.md`,
      content: `---\nname: ${name}\ndescription: Adds ${name} guidance to ${binding.parent}'s ${binding.phase} phase.\nbinds_to: ${binding.parent}\nphase: ${binding.phase}\nactivation_arg: ${binding.activationArg}\n---\n\nWhen this sub-skill is active, write here what ${binding.parent} should do differently in its ${binding.phase} phase.\n`,
    },
    {
      path: "tools/hello.ts",
      content: `// A GJC tool module: the default export is a factory that returns exactly one tool whose\n// name equals the name declared in gajae-plugin.json.\nexport default function createTool() {\n  return {\n    name: ${JSON.stringify(tool)},\n    label: "Hello",\n    description: "Says hello.",\n    parameters: { type: "object", properties: { name: { type: "string" } } },\n    async execute(_toolCallId: string, params: { name?: string }) {\n      return { content: [{ type: "text", text: \`Hello, \${params.name ?? "world"}!\` }] };\n    },\n  };\n}\n`,
    },
    {
      path: "prompts/system-appendix.md",
      content: `Guidance from the ${name} bundle: keep answers short and cite files you changed.\n`,
    },
    { path: "README.md", content: readme(name, "gjc", undefined) },
  ];
}

function readme(name: string, family: "c2" | "gjc", runtime: string | undefined): string {
  const lines = [
    `# ${name}`,
    "",
    `A ${family === "c2" ? "C2" : "GJC"} plugin bundle made with \`gjc plugin init\`.`,
    "",
    "```sh",
  ];
  lines.push("gjc plugin validate .   # check the manifest and every declared file");
  lines.push("gjc plugin test .       # run the conformance checks without installing");
  lines.push("gjc plugin pack .       # make a reproducible .tgz to publish");
  lines.push("```", "");
  if (runtime)
    lines.push(
      `The runtime (\`${runtime} plugin.cjs\`) speaks the C2 Plugin Protocol over stdin/stdout. \`gjc.test.json\` holds sample arguments for \`gjc plugin test\`; it is not part of the manifest.`,
      "",
    );
  return `${lines.join("\n")}`;
}

/**
 * A dependency-free runtime that works under node and bun: it reads its own plugin.json so
 * the handshake always returns exactly the manifest's commands and schemas.
 */
function c2RuntimeSource(): string {
  return `// C2 Plugin Protocol 1.0 runtime: newline-delimited JSON-RPC 2.0 on stdin/stdout.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const readline = require("node:readline");

const manifest = JSON.parse(readFileSync(join(__dirname, "plugin.json"), "utf8"));
const declared = manifest.extensions["dev.codetwo"].commands;

const handlers = {
  [declared[0].id]: (args) => ({ greeting: \`Hello, \${(args && args.name) || "world"}!\` }),
};

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
}

function answer(request) {
  if (request.method === "initialize") {
    return {
      protocolVersion: "1.0.0",
      name: manifest.name,
      version: manifest.version,
      commands: declared.map((c) => ({ name: c.id, description: c.description, schema: c.argsSchema ?? null })),
      events: [],
    };
  }
  if (request.method === "command/invoke") {
    const handler = handlers[request.params && request.params.name];
    if (!handler) throw new Error(\`unknown command \${request.params && request.params.name}\`);
    return handler(request.params.args);
  }
  throw new Error(\`unsupported method \${request.method}\`);
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  if (request.id === undefined || request.method === undefined) return; // notifications and responses
  try {
    send({ id: request.id, result: answer(request) });
  } catch (error) {
    send({ id: request.id, error: { code: -32000, message: String(error && error.message ? error.message : error) } });
  }
});
`;
}
