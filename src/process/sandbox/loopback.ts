import type { Libc } from "./libc.ts";

const AF_INET = 2;
const SOCK_DGRAM = 2;
const SIOCSIFFLAGS = 0x8914;
const IFF_UP = 1;

/**
 * Brings up the loopback of the sandbox's network namespace (a new one starts with it down), so
 * the relay's listeners there can be reached. Needs the namespace's CAP_NET_ADMIN, which the
 * stage holds until it drops its capabilities.
 */
export function loopbackUp(c: Libc): void {
  const fd = c.socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) throw new Error(`cannot open a socket to configure the loopback (errno ${c.errno()})`);
  try {
    // struct ifreq: char ifr_name[16], then the flags (short) in the union.
    const ifreq = new Uint8Array(40);
    ifreq.set(new TextEncoder().encode("lo"));
    new DataView(ifreq.buffer).setInt16(16, IFF_UP, true);
    if (c.ioctl(fd, SIOCSIFFLAGS, ifreq) !== 0) throw new Error(`cannot bring the loopback up (errno ${c.errno()})`);
  } finally {
    c.close(fd);
  }
}
