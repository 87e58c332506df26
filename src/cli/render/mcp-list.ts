/** Human text of `gjc plugin mcp list`: GJC bundles' declared servers, then C2 mcp.json servers. */
import type { Style } from "../../core/style.ts";
import type { McpListing } from "../../app/mcp-list.ts";

export function describeMcpServers(r: McpListing, s: Style): string {
  const lines: string[] = [];
  const gjc = r.servers.filter((d) => d.family === "gjc");
  const c2 = r.servers.filter((d) => d.family === "c2");
  if (r.servers.length === 0)
    lines.push("No MCP server is declared by an installed GJC bundle or a C2 bundle's mcp.json.");
  for (const d of gjc) {
    const state =
      d.status === "active"
        ? s.green("active")
        : d.status === "disabled"
          ? s.dim("disabled")
          : d.status === "excluded"
            ? s.yellow("excluded")
            : s.red("quarantined");
    const policy = d.policy.ok ? s.green("policy ok") : s.red(`policy refused: ${d.policy.message}`);
    lines.push(
      `${d.bundle}/${d.server} ${s.dim(`(${d.scope}, ${d.transport})`)} ${state}, ${policy}`,
      `  ${s.dim(d.target)}`,
    );
    for (const reason of d.reasons) lines.push(`  ${s.dim(`[${reason.code}]`)} ${reason.message}`);
  }
  for (const d of c2) {
    const state =
      d.status === "active"
        ? s.green("active")
        : d.status === "disabled"
          ? s.dim("disabled")
          : d.status === "untrusted"
            ? s.yellow("untrusted")
            : s.red("quarantined");
    const probe = d.probe.ok ? s.green("startable") : s.yellow(`not started by gjc: ${d.probe.message}`);
    lines.push(`${d.bundle}/${d.server} ${s.dim(`(c2, ${d.transport})`)} ${state}, ${probe}`, `  ${s.dim(d.target)}`);
    for (const reason of d.reasons) lines.push(`  ${s.dim(`[${reason.code}]`)} ${reason.message}`);
  }
  for (const scope of r.scopes.filter((x) => !x.ok))
    lines.push(s.red(`The ${scope.scope} scope cannot be read: ${scope.problem ?? "damaged registry"}`));
  return lines.join("\n");
}
