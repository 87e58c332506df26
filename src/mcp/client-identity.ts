/**
 * Who gjc says it is when it talks to an MCP server: in `initialize` (`clientInfo`) and, over
 * https, in the User-Agent header. A probe exists to see the server as the host will see it, so
 * it must not announce itself: a server that recognised "gjc" could show the probe one set of
 * tools and the agent host another, and every pin would be worthless. By default gjc presents
 * a plain client identity; a user who wants the probe to look exactly like their host sets
 * `GJC_MCP_CLIENT=<name>/<version>` (for example the host's own clientInfo).
 */
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";

export interface ClientIdentity {
  name: string;
  version: string;
}

/** The identity of an ordinary MCP client, the shape the MCP specification's own examples use. */
export const ORDINARY_CLIENT: ClientIdentity = { name: "mcp-client", version: "1.0.0" };

/** A name or version: printable ASCII without spaces or slashes, so it is safe in a header too. */
const PART = /^[A-Za-z0-9._+@:-]{1,100}$/;

export function clientIdentity(env: Record<string, string | undefined>): ClientIdentity {
  const raw = env.GJC_MCP_CLIENT;
  if (raw === undefined || raw === "") return ORDINARY_CLIENT;
  const slash = raw.indexOf("/");
  const name = slash < 0 ? raw : raw.slice(0, slash);
  const version = slash < 0 ? "" : raw.slice(slash + 1);
  if (!PART.test(name) || !PART.test(version))
    throw new GjcError({
      code: "usage",
      message: `GJC_MCP_CLIENT must be <name>/<version> (letters, digits and ._+@:- only), not ${JSON.stringify(raw.slice(0, 80))}.`,
      hint: 'e.g. GJC_MCP_CLIENT=claude-code/2.0.0, or unset it for the default "mcp-client/1.0.0"',
      exit: ExitCode.usage,
    });
  return { name, version };
}

/** The User-Agent an https probe sends: the same identity, so the header gives nothing else away. */
export const userAgentOf = (id: ClientIdentity) => `${id.name}/${id.version}`;
