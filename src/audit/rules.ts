/**
 * The audit rules: stable ids (they are what `--fail-on` and SARIF consumers match), one level
 * each, and the help text SARIF shows next to a result. Add rules at the end; never rename one.
 */
export type AuditLevel = "error" | "warning" | "note";

export interface AuditRule {
  id: string;
  level: AuditLevel;
  /** One line: what the rule finds. */
  summary: string;
  /** What to do about it. */
  help: string;
}

export const AUDIT_RULES: readonly AuditRule[] = [
  {
    id: "unpinned-launch-fetch",
    level: "error",
    summary:
      "A process downloads and runs code at launch without an exact version (npx, bunx, pnpm dlx, uvx, pipx run, @latest, curl | sh).",
    help: "The bundle's digest does not cover code fetched when the server starts, so it can change under you. Pin an exact version (pkg@1.2.3, pkg==1.2.3, an image @sha256 digest), or ship the code inside the bundle.",
  },
  {
    id: "plain-http-endpoint",
    level: "warning",
    summary: "A network endpoint is reached over plain http.",
    help: "Traffic to it is neither encrypted nor authenticated. Use https; plain http is acceptable only for a server on this machine that you run yourself.",
  },
  {
    id: "executable-outside-bundle",
    level: "warning",
    summary: "A process runs a program that is not inside the bundle (found on PATH) and no bundled script.",
    help: "What runs is whatever that name resolves to on each machine, outside the bundle's digest and gjc verify. Prefer a bundled ./bin executable or an interpreter given a bundled script.",
  },
  {
    id: "interpreter-from-path",
    level: "note",
    summary: "A process runs an interpreter from PATH (node, python3, …) on a script shipped in the bundle.",
    help: "The script is hashed and verified; the interpreter is the one installed on the machine. Nothing to fix unless you need a specific interpreter version.",
  },
  {
    id: "env-secret-passthrough",
    level: "warning",
    summary:
      "A process asks for an environment variable whose name marks a credential (token, key, password, secret) or a loader switch.",
    help: "gjc drops such names when it starts the process (src/process/env.ts), so the bundle may not work as its author meant; other hosts may pass them. A value written in the manifest is readable by anyone with the bundle; if the plugin really needs a credential, pass it deliberately with gjc plugin trust <name> --pass-env NAME only if the name is allowed.",
  },
  {
    id: "credential-header",
    level: "warning",
    summary: "An endpoint is sent a credential-looking header (Authorization, a token or key) written in the bundle.",
    help: "A credential in a shipped manifest is visible to everyone who gets the bundle. Have the server authenticate users instead, and rotate the credential if it was real.",
  },
  {
    id: "shell-command",
    level: "warning",
    summary: "A process runs a shell with a command string (sh -c, bash -c, cmd /c, powershell -Command).",
    help: "A shell command line can do anything and is hard to review. Run the program directly with its arguments.",
  },
  {
    id: "sandbox-grant-sensitive",
    level: "warning",
    summary:
      "A sandbox grant (gjc plugin allow) reaches a place where credentials or gjc's own state live (~/.ssh, ~/.aws, a browser profile, ~/.gjc and its state key, …).",
    help: "The plugin's processes can read (or change) those secrets despite the sandbox. Take the grant back with gjc plugin allow <name> --reset and grant only the narrower path the plugin needs.",
  },
  {
    id: "sandbox-grant-broad",
    level: "error",
    summary: "A sandbox grant (gjc plugin allow) covers the whole home directory or /.",
    help: "With it the sandbox no longer protects your keys, tokens or files from the plugin. Take it back with gjc plugin allow <name> --reset and grant the one directory it needs.",
  },
];

const BY_ID = new Map(AUDIT_RULES.map((r) => [r.id, r]));

export function auditRule(id: string): AuditRule {
  const rule = BY_ID.get(id);
  if (!rule) throw new Error(`unknown audit rule ${id}`);
  return rule;
}

export const isAuditRuleId = (id: string): boolean => BY_ID.has(id);
export const AUDIT_LEVELS: readonly AuditLevel[] = ["error", "warning", "note"];
