import type { Subprocess } from "bun";
import { within, TIMED_OUT } from "../../src/core/timeout.ts";
import { cliEntry } from "../helpers/cli.ts";
import { childEnv } from "../helpers/sandbox.ts";
import type { C2Home } from "./c2-runtime-setup.ts";

/**
 * A `gjc host --stdio` child with a small JSON-RPC client on its stdio. Use it with
 * `await using c = spawnHost(h)`: leaving the block, however the test ended, stops a host that
 * is still running (SIGTERM, so it stops and reaps its runtimes; its process group killed if
 * it has not exited within the bound) and waits until it is gone.
 */
export class HostClient implements AsyncDisposable {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: any) => void>();
  readonly notifications: any[] = [];
  private notify: (() => void) | undefined;
  readonly done: Promise<number>;
  stderr = "";

  constructor(readonly proc: Subprocess<"pipe", "pipe", "pipe">) {
    const pump = async () => {
      let buf = "";
      const dec = new TextDecoder();
      for await (const chunk of proc.stdout) {
        buf += dec.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf("\n")) !== -1) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim() === "") continue;
          const m = JSON.parse(line);
          if (m.id !== undefined && this.waiting.has(m.id)) {
            this.waiting.get(m.id)!(m);
            this.waiting.delete(m.id);
          } else {
            this.notifications.push(m);
            this.notify?.();
          }
        }
      }
    };
    const errPump = async () => {
      for await (const chunk of proc.stderr) this.stderr += new TextDecoder().decode(chunk);
    };
    this.done = Promise.all([pump(), errPump(), proc.exited]).then(([, , code]) => code);
  }

  call(method: string, params: unknown = {}): Promise<any> {
    const id = this.nextId++;
    const p = new Promise<any>((resolve) => this.waiting.set(id, resolve));
    this.proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    this.proc.stdin.flush();
    return p;
  }

  /** Writes one raw line (any bytes a client might send); answers not awaited by call() land in `notifications`. */
  sendLine(line: string): void {
    this.proc.stdin.write(`${line}\n`);
    this.proc.stdin.flush();
  }

  async result(method: string, params: unknown = {}): Promise<any> {
    const m = await this.call(method, params);
    if (m.error) throw new Error(`${method}: ${JSON.stringify(m.error)}`);
    return m.result;
  }

  /** Waits until a notification satisfies `pred` (no timers: woken by each arrival). */
  async waitFor(pred: (m: any) => boolean): Promise<any> {
    for (;;) {
      const hit = this.notifications.find(pred);
      if (hit) return hit;
      await new Promise<void>((r) => (this.notify = r));
    }
  }

  close(): Promise<number> {
    this.proc.stdin.end();
    return this.done;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill("SIGTERM");
      if ((await within(this.done, 10_000)) === TIMED_OUT) {
        try {
          process.kill(-this.proc.pid, "SIGKILL");
        } catch {
          // the group is already gone
        }
      }
    }
    await this.done;
  }
}

/** Starts `gjc host --stdio` in a C2 home, in its own process group; `await using` stops it after the test. */
export function spawnHost(
  h: C2Home,
  extra: string[] = [],
  env: Record<string, string> = {},
  binary?: string,
): HostClient {
  const proc = Bun.spawn([...(binary ? [binary] : [process.execPath, cliEntry]), "host", "--stdio", ...extra], {
    cwd: h.root,
    env: childEnv({ NO_COLOR: "1", ...h.env, ...env }),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  return new HostClient(proc);
}
