/**
 * The audit findings of a capability model: each rule of rules.ts applied to the processes,
 * endpoints and environment the model holds. A finding names its rule, level, where it was
 * declared, a message (no secret values) and the rule's hint.
 */
import type { CapabilityModel, DeclaredAt, ProcessCapability } from "../families/capability-model.ts";
import { auditRule, type AuditLevel } from "./rules.ts";
import { isDeniedEnvName } from "../process/env.ts";
import { shellScript, unpinnedFetch } from "./launch-fetch.ts";

export interface AuditFinding {
  ruleId: string;
  level: AuditLevel;
  /** The capability it is about (`mcp-stdio:github`, `mcp:remote`). */
  subject: string;
  message: string;
  hint: string;
  at: DeclaredAt;
}

const CREDENTIAL_HEADER =
  /^(?:authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token|x-access-token)$|token|secret|api[-_]?key/i;
const INTERPRETERS = new Set(["node", "bun", "deno", "python", "python3", "ruby", "perl", "php", "java", "dotnet"]);
const LAUNCHED: ReadonlySet<ProcessCapability["kind"]> = new Set(["c2-runtime", "language-server", "mcp-stdio"]);

export function auditFindings(model: CapabilityModel): AuditFinding[] {
  const out: AuditFinding[] = [];
  const add = (ruleId: string, subject: string, message: string, at: DeclaredAt) => {
    const rule = auditRule(ruleId);
    out.push({ ruleId, level: rule.level, subject, message, hint: rule.help, at });
  };
  for (const p of model.processes) {
    if (!LAUNCHED.has(p.kind)) continue;
    const fetch = unpinnedFetch(p.command, p.args);
    if (fetch)
      add("unpinned-launch-fetch", p.id, `${p.id} runs "${p.command}" and downloads code at launch: ${fetch}.`, p.at);
    if (shellScript(p.command, p.args) !== undefined)
      add("shell-command", p.id, `${p.id} runs a command string through ${p.command}.`, p.at);
    if (!p.commandInBundle && !fetch) {
      const program = p.command.slice(p.command.lastIndexOf("/") + 1);
      if (p.script !== null && INTERPRETERS.has(program))
        add("interpreter-from-path", p.id, `${p.id} runs ${p.command} from PATH on the bundled ${p.script}.`, p.at);
      else
        add(
          "executable-outside-bundle",
          p.id,
          `${p.id} runs "${p.command}", a program found on PATH, not a file in the bundle.`,
          p.at,
        );
    }
  }
  for (const e of model.endpoints) {
    if (e.scheme === "http") add("plain-http-endpoint", e.id, `${e.id} is reached over plain http (${e.host}).`, e.at);
    for (const h of e.headers)
      if (CREDENTIAL_HEADER.test(h))
        add("credential-header", e.id, `${e.id} sends the header ${h} with a value written in the bundle.`, {
          file: e.at.file,
          pointer: e.at.pointer.replace(/\/url$/, `/headers/${h.replace(/~/g, "~0").replace(/\//g, "~1")}`),
        });
  }
  for (const v of model.env) {
    // The launcher's own rule for what never reaches a child: one judgement, not a second list.
    const secret = isDeniedEnvName(v.name) || (v.from !== null && isDeniedEnvName(v.from));
    if (!secret) continue;
    const how =
      v.mode === "passes" ? `asks for your ${v.from} as ${v.name}` : `sets ${v.name} to a value written in the bundle`;
    add("env-secret-passthrough", v.owner, `${v.owner} ${how} (gjc drops it when starting the process).`, v.at);
  }
  return out;
}
