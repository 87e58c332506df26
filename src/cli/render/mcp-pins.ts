import type { Style } from "../../core/style.ts";
import type { PinCheck, PinOutcome, ProbedServer } from "../../app/mcp-probe.ts";
import type { ServedChange, ToolChange } from "../../mcp/pins.ts";

/** Changes to the instructions, prompts and resources, one line each. */
function describeServedChanges(changes: ServedChange[] = [], indent = "  "): string[] {
  const mark = { added: "+", removed: "-", changed: "~" } as const;
  return changes.map(
    (c) => `${indent}${mark[c.change]} ${c.kind === "instructions" ? "instructions" : `${c.kind} ${c.name}`}`,
  );
}

const short = (text: string | undefined) =>
  text === undefined ? "(none)" : JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text);

/** The tool-definition changes, one block per tool: what was pinned and what the server serves now. */
export function describeToolChanges(changes: ToolChange[], indent = "  "): string[] {
  const out: string[] = [];
  for (const c of changes) {
    if (c.change === "added") out.push(`${indent}+ tool ${c.tool}: ${short(c.after?.description)}`);
    else if (c.change === "removed") out.push(`${indent}- tool ${c.tool}`);
    else {
      out.push(`${indent}~ tool ${c.tool} (${c.fields.join(", ")})`);
      if (c.fields.includes("description"))
        out.push(
          `${indent}    was: ${short(c.before?.description)}`,
          `${indent}    now: ${short(c.after?.description)}`,
        );
    }
  }
  return out;
}

export function describePin(pin: PinOutcome, s: Style): string {
  const head: Record<PinOutcome["status"], string> = {
    pinned: `  ${s.green("pinned")} its tool definitions (${pin.toolsDigest.slice(0, 19)}…); a later probe or gjc plugin verify --mcp holds it to them.`,
    verified: `  ${s.green("pins verified")}: the tool definitions are the pinned ones.`,
    accepted: `  ${s.yellow("accepted")}: the new tool definitions are pinned (${pin.toolsDigest.slice(0, 19)}…).`,
    unchanged: "  nothing to accept: the server serves the pinned definitions.",
  };
  return [
    head[pin.status],
    ...describeToolChanges(pin.changes, "    "),
    ...describeServedChanges(pin.servedChanges, "    "),
  ].join("\n");
}

export function describePinChecks(checks: PinCheck[]): string[] {
  const out: string[] = [];
  for (const c of checks) {
    const where = `${c.bundle}/${c.server} [${c.family === "c2" ? "c2" : c.scope}]`;
    if (c.status === "verified") out.push(`mcp ok      ${where}: tool definitions match the pins`);
    else if (c.status === "drift")
      out.push(
        `mcp drift   ${where} (tool_definition_drift): run "gjc plugin mcp accept ${c.bundle}/${c.server}" after review`,
        ...describeToolChanges(c.changes, "    "),
        ...describeServedChanges(c.servedChanges, "    "),
      );
    else out.push(`mcp error   ${where}: ${c.error?.message ?? "probe failed"} (${c.error?.code ?? "error"})`);
  }
  return out;
}

/** `gjc plugin mcp probe`: the server, its tools, and what became of its pin. */
export function describeMcpProbe(r: ProbedServer & { pin: PinOutcome }, s: Style): string {
  return [
    `${s.bold(`${r.bundle}/${r.server}`)} ${s.dim(`(${r.scope ?? "c2"}, ${r.transport})`)}: ${r.serverInfo.name} ${r.serverInfo.version}, MCP ${r.protocolVersion}`,
    r.tools.length === 0 ? "  no tools" : `  ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}:`,
    ...r.tools.map(
      (t) => `    ${t.name}${t.description ? s.dim(` — ${t.description.split("\n")[0].slice(0, 100)}`) : ""}`,
    ),
    describePin(r.pin, s),
  ].join("\n");
}

/** `gjc plugin mcp accept`: the server, how many tools it serves, and the new pin. */
export function describeMcpAccept(r: ProbedServer & { pin: PinOutcome }, s: Style): string {
  return [
    `${s.bold(`${r.bundle}/${r.server}`)}: ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}`,
    describePin(r.pin, s),
  ].join("\n");
}
