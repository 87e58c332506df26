import type { CommandDef } from "citty";
import type { VerbCommand } from "./define-verb.ts";

/**
 * A verb in the tree: citty's lazy sub-command (a function that imports the verb's module and
 * resolves to its command), labelled with the one-line `meta` that group help and completion
 * list. citty would learn a sub-command's meta by loading it; the label lets `--help` of a
 * group show its verbs without importing one of them (start-up stays near a bare binary).
 */
export type LazyVerb = (() => Promise<VerbCommand<any>>) & { meta: { description: string } };

/** A command group: a citty command with `meta` and `subCommands`, and no `run`. */
export interface GroupCommand extends CommandDef {
  meta: { name?: string; description: string };
  subCommands: Record<string, GroupCommand | LazyVerb>;
}

const verb = (description: string, load: () => Promise<{ default: VerbCommand<any> }>): LazyVerb =>
  Object.assign(() => load().then((m) => m.default), { meta: { description } });

const group = (description: string, subCommands: GroupCommand["subCommands"]): GroupCommand => ({
  meta: { description },
  subCommands,
});

/** The command tree, rooted at `gjc`. */
export const gjc: GroupCommand = {
  meta: { name: "gjc", description: "Validate, install, verify and run C2 and GJC agent plugin bundles" },
  subCommands: {
    plugin: group("Validate, install and manage C2 and GJC plugin bundles", {
      validate: verb(
        "Check a bundle or a marketplace.json and report every problem",
        () => import("./commands/plugin-validate.ts"),
      ),
      audit: verb(
        "Show what a bundle can run, reach and inject, with findings (SARIF with --sarif)",
        () => import("./commands/plugin-audit.ts"),
      ),
      install: verb(
        "Install a bundle from a directory, tarball, git URL or GitHub",
        () => import("./commands/plugin-install.ts"),
      ),
      upgrade: verb(
        "Re-fetch an installed GJC bundle from its recorded source and apply the changes",
        () => import("./commands/plugin-upgrade.ts"),
      ),
      uninstall: verb("Remove an installed bundle", () => import("./commands/plugin-uninstall.ts")),
      enable: verb("Enable an installed bundle or one of its surfaces", () => import("./commands/plugin-enable.ts")),
      disable: verb("Disable an installed bundle or one of its surfaces", () => import("./commands/plugin-disable.ts")),
      list: verb("List installed bundles (both families, both GJC scopes)", () => import("./commands/plugin-list.ts")),
      inspect: verb(
        "Show one installed bundle: surfaces, files, source, commit",
        () => import("./commands/plugin-inspect.ts"),
      ),
      verify: verb(
        "Re-hash installed files; drift quarantines the bundle",
        () => import("./commands/plugin-verify.ts"),
      ),
      doctor: verb(
        "Find and repair leftovers, stale locks and damaged registries",
        () => import("./commands/plugin-doctor.ts"),
      ),
      init: verb("Scaffold a new bundle that validates as written", () => import("./commands/plugin-init.ts")),
      test: verb(
        "Run conformance checks on a bundle folder without installing it",
        () => import("./commands/plugin-test.ts"),
      ),
      pack: verb(
        "Make a reproducible .tgz of exactly what install would copy",
        () => import("./commands/plugin-pack.ts"),
      ),
      digest: verb(
        "Print a bundle's digest: exactly the message its signature signs",
        () => import("./commands/plugin-digest.ts"),
      ),
      sign: verb(
        "Sign a bundle's digest with an SSH key (SSHSIG, namespace gjc-plugin)",
        () => import("./commands/plugin-sign.ts"),
      ),
      trust: verb(
        "Allow a C2 bundle's processes to run (separate from enable)",
        () => import("./commands/plugin-trust.ts"),
      ),
      untrust: verb("Stop a C2 bundle's processes from running", () => import("./commands/plugin-untrust.ts")),
      allow: verb(
        "Let a bundle's sandboxed processes read, write or connect beyond the default profile",
        () => import("./commands/plugin-allow.ts"),
      ),
      permissions: verb(
        "Show what each process of a bundle may touch: the default sandbox profile plus grants",
        () => import("./commands/plugin-permissions.ts"),
      ),
      policy: group("C2 runtime policy: catalog, plan a change, apply it, reset", {
        catalog: verb(
          "Show installed C2 bundles and their policy at a scope",
          () => import("./commands/plugin-policy-catalog.ts"),
        ),
        plan: verb("Plan a policy change and get a single-use token", () => import("./commands/plugin-policy-plan.ts")),
        apply: verb("Apply a planned policy change", () => import("./commands/plugin-policy-apply.ts")),
        reset: verb(
          "Clear a bundle's policy at a scope (also leaves safe mode)",
          () => import("./commands/plugin-policy-reset.ts"),
        ),
      }),
      mcp: group("MCP servers declared by installed GJC bundles", {
        list: verb(
          "List declared MCP servers with their state and policy verdict",
          () => import("./commands/plugin-mcp-list.ts"),
        ),
        probe: verb(
          "Start or connect to one MCP server, list its tools, stop it (pins their definitions)",
          () => import("./commands/plugin-mcp-probe.ts"),
        ),
        accept: verb(
          "Re-pin the tool definitions of a server that drifted, after showing the change",
          () => import("./commands/plugin-mcp-accept.ts"),
        ),
      }),
      session: verb(
        "Build the GJC session-start plan from the verified installed bundles",
        () => import("./commands/plugin-session.ts"),
      ),
      run: verb(
        "Invoke one C2 runtime command (starts its trusted runtime, then stops it)",
        () => import("./commands/plugin-run.ts"),
      ),
      ui: group("C2 UI action contributions: list them, activate one", {
        list: verb("List UI contributions and whether each is offered", () => import("./commands/plugin-ui-list.ts")),
        invoke: verb(
          "Activate a UI action (host.actions: render, or invoke an item)",
          () => import("./commands/plugin-ui-invoke.ts"),
        ),
      }),
      connector: group("C2 connectors: call an operation within the declared capabilities", {
        invoke: verb("Call one connector operation", () => import("./commands/plugin-connector-invoke.ts")),
      }),
      lsp: group("C2 language servers: routing per language, probe one", {
        list: verb(
          "List language servers and the provider of each language",
          () => import("./commands/plugin-lsp-list.ts"),
        ),
        probe: verb(
          "Start a language server, run initialize, print capabilities, stop it",
          () => import("./commands/plugin-lsp-probe.ts"),
        ),
      }),
      lock: verb(
        "Write, check or export the scope's plugin set lock (plugins.lock.json)",
        () => import("./commands/plugin-lock.ts"),
      ),
      sync: verb(
        "Make the scope exactly its lock (install at pins, repair drift, --prune the rest)",
        () => import("./commands/plugin-sync.ts"),
      ),
      outdated: verb(
        "Show installed pins and the newest available per bundle (exit 0 unless --exit-code)",
        () => import("./commands/plugin-outdated.ts"),
      ),
      history: verb("List the scope's retained generations (last 10)", () => import("./commands/plugin-history.ts")),
      rollback: verb(
        "Put a bundle back as an earlier generation had it, offline; never raises trust",
        () => import("./commands/plugin-rollback.ts"),
      ),
      cache: group("The content cache of judged bundle contents: list, verify, prune", {
        list: verb("List cached bundle contents by integrity", () => import("./commands/plugin-cache-list.ts")),
        verify: verb(
          "Re-hash every cached bundle against its digest",
          () => import("./commands/plugin-cache-verify.ts"),
        ),
        prune: verb(
          "Remove cached contents no lock or retained generation names",
          () => import("./commands/plugin-cache-prune.ts"),
        ),
      }),
      scaffold: group("C2 scaffolds: list the template folders of installed bundles, apply one", {
        list: verb("List the scaffolds of installed C2 bundles", () => import("./commands/plugin-scaffold-list.ts")),
        apply: verb(
          "Copy a scaffold into a target directory (never overwrites; all or nothing)",
          () => import("./commands/plugin-scaffold-apply.ts"),
        ),
      }),
      log: group("Release logs: an append-only, signed record of a publisher's releases", {
        init: verb("Make an empty release log and its note key", () => import("./commands/plugin-log-init.ts")),
        append: verb(
          "Add a release (from a bundle, or --name --version --digest) and sign a new checkpoint",
          () => import("./commands/plugin-log-append.ts"),
        ),
        verify: verb(
          "Recompute a release log and check it against the checkpoint remembered for it",
          () => import("./commands/plugin-log-verify.ts"),
        ),
        monitor: verb(
          "List a log's releases signed by keys other than the given ones",
          () => import("./commands/plugin-log-monitor.ts"),
        ),
      }),
      activate: verb(
        "Activate a GJC sub-skill for a skill invocation (Tier-2) through the registry",
        () => import("./commands/plugin-activate.ts"),
      ),
    }),
    marketplace: group("Work with C2 marketplace catalogs", {
      validate: verb("Check a marketplace.json catalog", () => import("./commands/marketplace-validate.ts")),
      list: verb("List a catalog's entries and which are installed", () => import("./commands/marketplace-list.ts")),
    }),
    sandbox: group("Run commands in a bundle's sandbox", {
      exec: verb(
        "Run a command in an installed bundle's sandbox, with gjc's standard streams (what session plans hand to hosts)",
        () => import("./commands/sandbox-exec.ts"),
      ),
    }),
    signers: group("Publishers you trust to sign bundles (allowed_signers) and keys you revoked", {
      add: verb("Trust a publisher's key", () => import("./commands/signers-add.ts")),
      list: verb("List trusted publishers and revoked keys", () => import("./commands/signers-list.ts")),
      remove: verb("Stop trusting a publisher", () => import("./commands/signers-remove.ts")),
      revoke: verb("Revoke a key for good", () => import("./commands/signers-revoke.ts")),
    }),
    host: verb("Serve the C2 management plane over stdio (gjc host --stdio)", () => import("./commands/host-stdio.ts")),
    completion: verb("Print a shell completion script (bash, zsh, fish)", () => import("./commands/completion.ts")),
    explain: verb(
      "Explain an error or diagnostic code: what it means, an example, how to fix it",
      () => import("./commands/explain.ts"),
    ),
  },
};

/** A group or a verb, as a step down the tree reaches it. */
export type GjcCommand = GroupCommand | VerbCommand<any>;

export const isGroup = (command: GjcCommand): command is GroupCommand => "subCommands" in command;

/** A sub-command entry resolved as citty resolves one: a lazy verb imports its module here. */
export async function resolveEntry(entry: GroupCommand | LazyVerb): Promise<GjcCommand> {
  return typeof entry === "function" ? entry() : entry;
}

/** One step down the tree. Only the group's own names count: `constructor` is no command. */
export async function subCommand(group: GroupCommand, name: string): Promise<GjcCommand | undefined> {
  return Object.hasOwn(group.subCommands, name) ? resolveEntry(group.subCommands[name]) : undefined;
}
