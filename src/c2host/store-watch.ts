/**
 * Wakes the long-running host when another gjc process changes the C2 store. Commands commit
 * by rename in three places: the data root (the policy `plugin-config.json`, the records index
 * `installed-index.json`), `plugins/` (a bundle directory appears or goes) and
 * `plugins/<id>/` (its installed record is rewritten: enable, trust, quarantine). The root,
 * `plugins/` and each bundle directory get one non-recursive fs.watch each (a recursive watch
 * would also cover every file of every bundle), so a change is seen even when the records index
 * is not rewritten (it is skipped while any record is unusable). Each burst of events leads to
 * one check of the store revisions, and only a real change runs `onChange`. Runs never
 * overlap: events during a run schedule exactly one more.
 */
import { mkdirSync, readdirSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

export interface StoreWatch {
  close(): void;
  /** Runs a check now (the plane calls it after it changed the store itself). */
  poke(): void;
}

export function watchStore(
  root: string,
  revision: () => string,
  onChange: (revision: string) => Promise<void>,
  onError: (e: unknown) => void = () => {},
  busy: () => boolean = () => false,
): StoreWatch {
  mkdirSync(root, { recursive: true, mode: 0o755 });
  let last = safe(revision);
  let running = false;
  let again = false;
  let closed = false;
  let check = async () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        // A writer mid-commit (a replace renames the old bundle aside before the new one is in
        // place) is not a state to act on; releasing its lock in the root wakes the watch again.
        if (busy()) break;
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
  const watchers = new Map<string, FSWatcher>();
  const add = (dir: string) => {
    if (closed || watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, () => void check());
      w.on("error", () => {
        // The directory went away (an uninstalled bundle): forget it; the next scan decides.
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    } catch {
      // not there (yet): the next scan adds it
    }
  };
  /** Watches the root, plugins/ and every bundle directory now present; drops the gone ones. */
  const scan = () => {
    add(root);
    const plugins = join(root, "plugins");
    add(plugins);
    let names: string[] = [];
    try {
      names = readdirSync(plugins).filter((n) => !n.startsWith("."));
    } catch {}
    const wanted = new Set([root, plugins, ...names.map((n) => join(plugins, n))]);
    for (const dir of wanted) add(dir);
    for (const [dir, w] of watchers) {
      if (!wanted.has(dir)) {
        w.close();
        watchers.delete(dir);
      }
    }
  };
  const inner = check;
  check = async () => {
    scan();
    await inner();
  };
  scan();
  return {
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
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
