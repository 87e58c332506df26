import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runsCleanly } from "../../../../src/process/launch.ts";
import { LATE_UNSHARE_FLAGS, UNSHARE_FLAGS, UNSHARE_NET } from "../../../../src/process/sandbox/mechanisms.ts";
import { namespacesOpen } from "../../../../src/process/sandbox/namespaces.ts";
import { tempDir } from "../../../helpers/tmp.ts";

const tmp = tempDir("gjc-namespaces-");
afterAll(() => tmp.cleanup());

const LATE = LATE_UNSHARE_FLAGS;

/** What a kernel that lets an unprivileged user make the namespaces publishes. */
const OPEN: Record<string, string> = {
  "proc/self/status": "Name:\tgjc\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n",
  "proc/sys/user/max_user_namespaces": "63000\n",
  "proc/sys/user/max_mnt_namespaces": "63000\n",
  "proc/sys/user/max_net_namespaces": "63000\n",
  "proc/self/mountinfo":
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n",
};
/** A getopt table as util-linux 2.39 compiles it, between other strings. */
const UNSHARE_239 = "\0\x7fELF…\0fork\0map-user\0map-current-user\0mount-proc\0keep-caps\0setgroups\0";

let n = 0;
/** A root holding `files` (OPEN changed by `change`; undefined removes a file) and an unshare program. */
function root(
  change: Record<string, string | undefined> = {},
  program = UNSHARE_239,
): { root: string; unshare: string } {
  const dir = join(tmp.path, `r${++n}`);
  for (const [rel, text] of Object.entries({ ...OPEN, ...change })) {
    if (text === undefined) continue;
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  writeFileSync(join(dir, "unshare"), program);
  return { root: dir, unshare: join(dir, "unshare") };
}

const answer = (r: { root: string; unshare: string }) => namespacesOpen(r.unshare, LATE, r.root);

describe("whether unshare will make the namespaces, as the kernel answers it", () => {
  test("a kernel that shows no way to refuse them, with an unshare that has the options: yes", () => {
    expect(answer(root())).toBe(true);
  });

  test("each way the kernel or the program may refuse leaves the answer to trying it", () => {
    const undecided = {
      "a seccomp filter on gjc itself": root({ "proc/self/status": "Seccomp:\t2\nSeccomp_filters:\t1\n" }),
      "no seccomp line at all": root({ "proc/self/status": "Name:\tgjc\n" }),
      "user namespaces limited to none": root({ "proc/sys/user/max_user_namespaces": "0\n" }),
      "no user namespaces in the kernel": root({ "proc/sys/user/max_user_namespaces": undefined }),
      "network namespaces limited to none": root({ "proc/sys/user/max_net_namespaces": "0\n" }),
      "mount namespaces limited to none": root({ "proc/sys/user/max_mnt_namespaces": "0\n" }),
      "Debian's switch off": root({ "proc/sys/kernel/unprivileged_userns_clone": "0\n" }),
      "AppArmor restricting them": root({ "proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1\n" }),
      "SELinux enforcing": root({ "sys/fs/selinux/enforce": "1" }),
      "a chroot (no mount of / at /)": root({
        "proc/self/mountinfo": "27 1 254:0 /srv/jail / rw,relatime - ext4 /dev/vda rw\n",
      }),
      "an unshare without --keep-caps (util-linux 2.38)": root({}, "\0fork\0map-user\0map-current-user\0mount-proc\0"),
      "no unshare program to read": { ...root(), unshare: join(tmp.path, "missing") },
    };
    for (const [why, r] of Object.entries(undecided)) expect([why, answer(r)]).toEqual([why, undefined]);
    // The switches set the permissive way answer as their absence does.
    expect(
      answer(
        root({
          "proc/sys/kernel/unprivileged_userns_clone": "1\n",
          "proc/sys/kernel/apparmor_restrict_unprivileged_userns": "0\n",
          "sys/fs/selinux/enforce": "0",
        }),
      ),
    ).toBe(true);
  });

  test("on this machine, a yes from the kernel is what running unshare finds", () => {
    const unshare = ["/usr/bin/unshare", "/bin/unshare"].find((p) => existsSync(p));
    expect(unshare).toBeDefined();
    const known = namespacesOpen(unshare as string, LATE);
    const tried = runsCleanly([unshare as string, ...UNSHARE_FLAGS, UNSHARE_NET, "--", "/bin/true"]);
    expect({ known, tried }).not.toEqual({ known: true, tried: false });
    // The options looked for are among those the launcher passes, named as the program's table names them.
    for (const flag of LATE) expect(UNSHARE_FLAGS).toContain(flag);
    const program = readFileSync(unshare as string, "latin1");
    expect(LATE.filter((flag) => tried && !program.includes(`\0${flag.slice(2)}\0`))).toEqual([]);
  });
});
