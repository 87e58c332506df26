/**
 * Does this argv download code when it starts? Package runners (npx, bunx, pnpm dlx, yarn dlx,
 * npm exec, uvx, uv tool run, pipx run), container runs and `curl … | sh` fetch what they run at
 * launch; the bundle's digest pins it only when the version is exact. Returns why it is not
 * pinned, or undefined.
 */
const EXACT_VERSION = /^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/;
const FULL_SHA = /^[0-9a-f]{40}$/;

const base = (command: string): string => command.slice(command.lastIndexOf("/") + 1).replace(/\.(?:exe|cmd)$/i, "");

/** The first argument that is not an option (and not the value of a known option that takes one). */
function firstOperand(args: string[], valued: ReadonlySet<string>): { value: string; index: number } | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return args[i + 1] === undefined ? undefined : { value: args[i + 1], index: i + 1 };
    if (a.startsWith("-")) {
      if (valued.has(a)) i++;
      continue;
    }
    return { value: a, index: i };
  }
  return undefined;
}

function optionValue(args: string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    for (const n of names) {
      if (args[i] === n) return args[i + 1];
      if (args[i].startsWith(`${n}=`)) return args[i].slice(n.length + 1);
    }
  }
  return undefined;
}

/** npm-style `name@version` (scoped names keep their leading @). */
function npmSpecProblem(spec: string): string | undefined {
  const at = spec.lastIndexOf("@");
  if (at <= 0) return `"${spec}" names no version`;
  const version = spec.slice(at + 1);
  if (EXACT_VERSION.test(version)) return undefined;
  return version === "latest"
    ? `"${spec}" follows the latest tag`
    : `"${spec}" is a range or tag, not an exact version`;
}

/** PyPI-style `name==version`, uvx's `name@version`, or a git URL pinned to a full commit. */
function pySpecProblem(spec: string): string | undefined {
  if (/^git\+/.test(spec)) {
    const ref = spec.includes("@") ? spec.slice(spec.lastIndexOf("@") + 1).replace(/#.*$/, "") : "";
    return FULL_SHA.test(ref) ? undefined : `"${spec}" follows a git branch or tag, not a full commit`;
  }
  const eq = /^[A-Za-z0-9._\-\[\],]+==([^=<>!~;\s]+)$/.exec(spec);
  if (eq && EXACT_VERSION.test(eq[1])) return undefined;
  const at = spec.lastIndexOf("@");
  if (at > 0 && EXACT_VERSION.test(spec.slice(at + 1))) return undefined;
  if (at > 0 && spec.slice(at + 1) === "latest") return `"${spec}" follows the latest release`;
  return `"${spec}" names no exact version`;
}

const NPX_VALUED = new Set(["-p", "--package", "-c", "--call", "--cache", "--registry", "--userconfig"]);
const UVX_VALUED = new Set([
  "--from",
  "--with",
  "-w",
  "--python",
  "-p",
  "--index",
  "--index-url",
  "--extra-index-url",
  "--with-requirements",
  "--constraint",
  "-c",
]);
const PIPX_VALUED = new Set(["--spec", "--python", "--index-url", "-i", "--pip-args"]);
const DOCKER_VALUED = new Set([
  "-e",
  "--env",
  "-v",
  "--volume",
  "-p",
  "--publish",
  "--name",
  "--network",
  "--net",
  "-w",
  "--workdir",
  "--mount",
  "--entrypoint",
  "-u",
  "--user",
  "--env-file",
  "-l",
  "--label",
  "--platform",
  "-h",
  "--hostname",
  "--add-host",
]);

function npxLike(args: string[]): string | undefined {
  const pkg = optionValue(args, ["-p", "--package"]) ?? firstOperand(args, NPX_VALUED)?.value;
  if (pkg === undefined) return undefined;
  // A path (./x, /x) or a tarball runs local code, not a registry download.
  if (/^(?:\.{0,2}\/|file:)/.test(pkg)) return undefined;
  return npmSpecProblem(pkg);
}

function uvxLike(args: string[]): string | undefined {
  const from = optionValue(args, ["--from"]);
  if (from !== undefined) return pySpecProblem(from);
  const tool = firstOperand(args, UVX_VALUED)?.value;
  return tool === undefined ? undefined : pySpecProblem(tool);
}

function pipxRun(args: string[]): string | undefined {
  const spec = optionValue(args, ["--spec"]);
  if (spec !== undefined) return pySpecProblem(spec);
  const app = firstOperand(args, PIPX_VALUED)?.value;
  return app === undefined ? undefined : pySpecProblem(app);
}

function containerRun(args: string[]): string | undefined {
  const image = firstOperand(args, DOCKER_VALUED)?.value;
  if (image === undefined || image.includes("@sha256:")) return undefined;
  return `the image "${image}" is not pinned by digest (@sha256:…)`;
}

/** `curl … | sh` inside a shell command string. */
export function pipedToShell(script: string): boolean {
  return /\b(?:curl|wget)\b[^|;&]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:curl|wget)\b[^|;&]*\|\s*(?:sudo\s+)?python\d?\b/.test(
    script,
  );
}

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "cmd", "powershell", "pwsh"]);
const SHELL_FLAGS = new Set(["-c", "/c", "/C", "-Command", "-command", "-c"]);

/** The command string a shell would run, when argv is `sh -c '<script>'` and the like. */
export function shellScript(command: string, args: string[]): string | undefined {
  if (!SHELLS.has(base(command))) return undefined;
  const i = args.findIndex((a) => SHELL_FLAGS.has(a) || /^-[a-z]*c$/.test(a));
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : undefined;
}

/** Why this launch fetches unpinned code, or undefined when it does not. */
export function unpinnedFetch(command: string, args: string[]): string | undefined {
  const name = base(command);
  switch (name) {
    case "npx":
    case "bunx":
    case "pnpx":
      return npxLike(args);
    case "uvx":
      return uvxLike(args);
    case "pnpm":
    case "yarn":
      return args[0] === "dlx" ? npxLike(args.slice(1)) : undefined;
    case "npm":
      return args[0] === "exec" || args[0] === "x" ? npxLike(args.slice(1)) : undefined;
    case "bun":
      return args[0] === "x" ? npxLike(args.slice(1)) : undefined;
    case "uv":
      return args[0] === "tool" && args[1] === "run" ? uvxLike(args.slice(2)) : undefined;
    case "pipx":
      return args[0] === "run" ? pipxRun(args.slice(1)) : undefined;
    case "docker":
    case "podman":
      return args[0] === "run" ? containerRun(args.slice(1)) : undefined;
  }
  const script = shellScript(command, args);
  if (script !== undefined) {
    if (pipedToShell(script)) return "it pipes a download (curl/wget) into a shell";
    const words = script.trim().split(/\s+/);
    if (words.length > 0 && words[0] !== name) {
      const inner = unpinnedFetch(words[0], words.slice(1));
      if (inner) return inner;
    }
  }
  for (const a of args) if (/@latest(?:$|[^A-Za-z0-9])/.test(a)) return `the argument "${a}" follows @latest`;
  return undefined;
}
