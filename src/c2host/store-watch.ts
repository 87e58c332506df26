/**
 * Wakes the long-running host when another gjc process changes the C2 store. Every command
 * that changes what may run commits in the data root: the policy (`plugin-config.json`,
 * replaced by rename) or the records index (`installed-index.json`, rewritten after install,
 * upgrade, uninstall, enable/disable, trust/untrust, verify). So one non-recursive fs.watch of
 * the root sees them all; each burst of events leads to one check of the store revisions
 * (config revision + graph revision), and only a real change runs `onChange`. Runs never
 * overlap: events during a run schedule exactly one more.
 */
import { mkdirSync, watch, type FSWatcher } from "node:fs";

export interface StoreWatch {
  close(): void;
  /** Runs a check now (the plane calls it after it changed the store itself). */
  poke(): void;
}

export function watchStore(root: string, revision: () => string, onChange: (revision: string) => Promise<void>, onError: (e: unknown) => void = () => {}): StoreWatch {
  mkdirSync(root, { recursive: true });
  let last = safe(revision);
  let running = false;
  let again = false;
  let closed = false;
  const check = async () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const now = safe(revision);
        if (now !== last) {
          last = now;
          await onChange(now);
        }
      } while (again && !closed);
    } catch (e) {
      onError(e);
    } finally {
      running = false;
    }
  };
  let watcher: FSWatcher | undefined = watch(root, { persistent: false }, () => void check());
  watcher.on("error", onError);
  return {
    close() {
      closed = true;
      watcher?.close();
      watcher = undefined;
    },
    poke: () => void check(),
  };
}

function safe(revision: () => string): string {
  try {
    return revision();
  } catch (e) {
    return `unreadable:${(e as Error).message}`;
  }
}
