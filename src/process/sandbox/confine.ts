import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { GjcError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { hasGap, sandboxMechanisms, UNSHARE_FLAGS, UNSHARE_NET, type SandboxMechanisms } from "./mechanisms.ts";
import { recordSandboxNotice } from "./notices.ts";
import type { SandboxProfile, SandboxSubject } from "./profile.ts";
import { coveredFolders } from "./hide-plan.ts";
import type { Relay } from "./relay.ts";
import { relayedNetwork } from "./relay-plan.ts";
import { selfArgv } from "./self.ts";
import { FORWARDER_ARGUMENT, STAGE_ARGUMENT, type StageSpec } from "./stage-spec.ts";
import { commandPaths, SYSTEM_DEVICES, SYSTEM_READ, SYSTEM_READ_NO_EXEC } from "./system-paths.ts";

/** What a caller asks of the launcher for a process that runs bundle code. */
export interface SandboxRequest {
  subject: SandboxSubject;
  /** The bundle's part of the profile: its content, its data directories, its grants (profileFor). */
  profile: SandboxProfile;
  /** The invoking environment: `GJC_SANDBOX`, `GJC_SANDBOX_WITHOUT`, `TMPDIR`, `HOME`. */
  hostEnv: Record<string, string | undefined>;
}

export interface Confined {
  argv: string[];
  env: Record<string, string>;
  /** Closes the network relay and removes the private temporary directory (after the whole tree is gone). */
  dispose(): void;
}

/** `GJC_SANDBOX`: unset (confine where possible, warn where not), `require` (refuse where not), `off`. */
export type SandboxMode = "default" | "require" | "off";

export function sandboxMode(env: Record<string, string | undefined>): SandboxMode {
  const v = env.GJC_SANDBOX?.trim().toLowerCase();
  return v === "require" ? "require" : v === "off" ? "off" : "default";
}

const unconfined = (argv: string[], env: Record<string, string>): Confined => ({ argv, env, dispose() {} });

/**
 * Rewrites a launch so the command starts confined: `[unshare --user --map-current-user --mount
 * --keep-caps --net --] gjc __sandbox-stage <spec> -- <command…>`. In the namespaces (when
 * util-linux unshare works here) the stage hides the home, /tmp and /run but for the profile's
 * paths, starts the network forwarder when the process has network grants, then applies Landlock
 * and seccomp to itself and execs the command. Where the machine cannot confine, says so once
 * (or refuses, with `GJC_SANDBOX=require`) and runs the command as it is.
 */
export function confine(
  argv: string[],
  env: Record<string, string>,
  request: SandboxRequest,
  canRun: (argv: string[]) => boolean,
): Confined {
  const mode = sandboxMode(request.hostEnv);
  if (mode === "off") {
    recordSandboxNotice({
      code: "sandbox_off",
      message:
        "GJC_SANDBOX=off: plugin processes run unconfined, with all of your permissions (files, network, other processes)",
      hint: "unset GJC_SANDBOX to confine them again; off is meant for debugging only",
    });
    return unconfined(argv, env);
  }
  const m = sandboxMechanisms(request.hostEnv, canRun);
  if (hasGap(m)) {
    const what = m.missing.join("; ");
    if (mode === "require")
      throw new GjcError({
        code: "sandbox_unavailable",
        message: `GJC_SANDBOX=require, but this machine cannot enforce the sandbox of ${describe(request.subject)}: missing ${what}`,
        hint: "run on a Linux kernel with Landlock and unprivileged user namespaces (see gjc plugin doctor), or unset GJC_SANDBOX to run with a warning",
        exit: ExitCode.refused,
      });
    recordSandboxNotice({
      code: "sandbox_unavailable",
      message: m.enforced
        ? `the plugin sandbox is only partly enforced here: missing ${what}`
        : `plugin processes run unconfined here: missing ${what}`,
      hint: "gjc plugin doctor shows which mechanisms are active; GJC_SANDBOX=require refuses instead of running",
    });
    if (!m.enforced) return unconfined(argv, env);
  }
  return stageLaunch(argv, env, request, m);
}

function stageLaunch(
  argv: string[],
  env: Record<string, string>,
  request: SandboxRequest,
  m: SandboxMechanisms,
): Confined {
  const command = resolveCommand(argv[0] as string, env.PATH);
  const tempParent = request.hostEnv.TMPDIR && isAbsolute(request.hostEnv.TMPDIR) ? request.hostEnv.TMPDIR : "/tmp";
  const temp = mkdtempSync(join(tempParent, "gjc-sandbox-"));
  chmodSync(temp, 0o700);
  const { profile } = request;
  const noNetwork = profile.net.length === 0;
  const anyPort = profile.net.some((g) => g.port === undefined);
  const spec: StageSpec = {
    read: [...SYSTEM_READ, ...commandPaths(command, request.hostEnv.HOME ?? "/"), ...profile.read],
    readNoExec: SYSTEM_READ_NO_EXEC,
    devices: SYSTEM_DEVICES,
    write: [...profile.write, temp],
    // Landlock restricts TCP by port only: with a grant of any port it cannot restrict TCP.
    connectPorts: anyPort ? null : [...new Set(profile.net.map((g) => g.port as number))],
    seccomp: m.seccomp,
    setEnv: {},
    cover: m.unshare !== null ? coveredFolders(request.hostEnv) : null,
    forwarder: null,
  };
  // With a namespace, granted destinations are reached only through the relay, which checks the
  // host as well as the port (Landlock alone knows ports).
  let relay: Relay | undefined;
  if (!noNetwork && m.unshare !== null) {
    const net = relayedNetwork(profile, join(temp, "net.sock"));
    // node:net only for processes with network grants.
    relay = (require("./relay.ts") as typeof import("./relay.ts")).startRelay(
      net.forwarder.socket,
      profile.net,
      request.subject,
    );
    spec.forwarder = [...selfArgv(), FORWARDER_ARGUMENT, JSON.stringify(net.forwarder)];
    spec.connectPorts = net.connectPorts;
    Object.assign(spec.setEnv, net.env);
  }
  const stageEnv: Record<string, string> = { ...env, TMPDIR: temp, TMP: temp, TEMP: temp };
  // The stage is gjc itself: a variable meant for the command must not change what the stage is.
  if (stageEnv.BUN_BE_BUN !== undefined) {
    spec.setEnv.BUN_BE_BUN = stageEnv.BUN_BE_BUN;
    delete stageEnv.BUN_BE_BUN;
  }
  const namespace = m.unshare !== null ? [m.unshare, ...UNSHARE_FLAGS, UNSHARE_NET, "--"] : [];
  return {
    argv: [...namespace, ...selfArgv(), STAGE_ARGUMENT, JSON.stringify(spec), "--", command, ...argv.slice(1)],
    env: stageEnv,
    dispose: () => {
      relay?.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}

/** The program the stage execs must be a path: a bare name is looked up on the child's PATH now. */
function resolveCommand(command: string, path: string | undefined): string {
  if (isAbsolute(command)) return command;
  return Bun.which(command, { PATH: path ?? "" }) ?? command;
}

/** The process as the user names it in `gjc plugin allow`. */
export function describe(subject: SandboxSubject): string {
  const p = subject.process;
  if (!p) return subject.bundle;
  return `${subject.bundle} (${p.kind}${p.id !== undefined ? ` ${p.id}` : ""})`;
}
