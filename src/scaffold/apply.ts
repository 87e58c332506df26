/**
 * `gjc plugin scaffold apply <bundle>/<scaffold> <target-dir>`: copies a scaffold's template
 * files, as bytes, into an explicit target directory. Nothing runs (no template engine, no
 * hook). The order is fixed so a refusal leaves nothing behind:
 *   1. judge every path (the install path rules, case/NFC collisions with what is already in
 *      the target, symlinks anywhere under the target) and list every conflict at once;
 *   2. read each installed template file and check it against the hash recorded at install;
 *   3. write the whole tree into a stage beside the target, then move it in by rename.
 * A new target directory appears in one rename. Into an existing directory, the top-most new
 * paths ("units") are moved one by one after a journal naming them all is on disk; a failure
 * moves them back, and a kill is undone by the next apply to that target (leftovers are swept
 * before anything is judged). Files are linked in (link(2) never replaces a file), never
 * renamed over one, so nothing is ever overwritten, even by a racing writer.
 */
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fsyncDir, writeFileAtomic } from "../bundle/atomic-fs.ts";
import { sha256Hex } from "../bundle/hash.ts";
import { C2_LIMITS } from "../bundle/limits.ts";
import { collisionKey, findCollision, hasControlChars } from "../bundle/names.ts";
import { relativePathProblem } from "../bundle/path-safety.ts";
import { readRegularFile } from "../bundle/read-file.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { crashPoint } from "../store/crash-hook.ts";
import { readStateJson, signedStateText, warnForeignState } from "../store/state-file.ts";
import { processAlive } from "../process/process-identity.ts";
import { writeFiles, type StoredFile } from "../store/files.ts";
import { findScaffold, type ScaffoldEntry } from "./catalog.ts";

export interface ScaffoldConflict {
  /** Path relative to the target directory ("." is the target itself). */
  path: string;
  reason: "exists" | "not_a_directory" | "symlink" | "case_collision" | "unsafe_name";
  /** The existing name a case/NFC collision is with. */
  existing?: string;
}

export interface ScaffoldApplyResult {
  plugin: string;
  pluginName: string;
  scaffold: { id: string; name: string; path: string; title: string };
  target: string;
  dryRun: boolean;
  /** False for a dry run. */
  written: boolean;
  createdTarget: boolean;
  files: { path: string; bytes: number; sha256: string; mode: number }[];
}

const STAGE_TAG = "scaffold";

function stagePrefix(target: string): string {
  return `.${basename(target)}.${STAGE_TAG}-`;
}

/** `<bundle>/<scaffold>`: the bundle is the part before the first slash. */
function parseAddress(address: string): { bundle: string; scaffold: string } {
  const slash = address.indexOf("/");
  if (slash <= 0 || slash === address.length - 1) {
    throw new GjcError({
      code: "usage",
      message: `${JSON.stringify(address)} is not <bundle>/<scaffold>.`,
      hint: 'Run "gjc plugin scaffold list" to see the scaffolds of installed bundles.',
      exit: ExitCode.usage,
    });
  }
  return { bundle: address.slice(0, slash), scaffold: address.slice(slash + 1) };
}

/** Every reason the scaffold cannot be written into `target`, all at once. */
export function judgeTarget(target: string, rels: readonly string[]): ScaffoldConflict[] {
  const conflicts: ScaffoldConflict[] = [];
  let targetStat;
  try {
    targetStat = lstatSync(target);
  } catch {
    targetStat = undefined;
  }
  if (targetStat?.isSymbolicLink()) return [{ path: ".", reason: "symlink" }];
  if (targetStat && !targetStat.isDirectory()) return [{ path: ".", reason: "not_a_directory" }];

  const collision = findCollision(rels);
  if (collision) conflicts.push({ path: collision[1], reason: "case_collision", existing: collision[0] });
  // Names in each existing directory, by collision key (read once per directory).
  const listings = new Map<string, Map<string, string> | null>();
  const listing = (abs: string): Map<string, string> | null => {
    if (!listings.has(abs)) {
      try {
        listings.set(abs, new Map(readdirSync(abs).map((n) => [collisionKey(n), n])));
      } catch {
        listings.set(abs, null);
      }
    }
    return listings.get(abs)!;
  };
  const reported = new Set<string>();
  const report = (c: ScaffoldConflict) => {
    if (reported.has(c.path)) return;
    reported.add(c.path);
    conflicts.push(c);
  };
  for (const rel of rels) {
    if (relativePathProblem(rel) !== undefined || hasControlChars(rel)) {
      report({ path: rel, reason: "unsafe_name" });
      continue;
    }
    if (!targetStat) continue; // a new target: nothing in it can conflict
    const parts = rel.split("/");
    let dir = target;
    for (let i = 0; i < parts.length; i++) {
      const here = parts.slice(0, i + 1).join("/");
      const names = listing(dir);
      if (names === null) break; // this directory does not exist yet: nothing below can clash
      const existing = names.get(collisionKey(parts[i]));
      if (existing === undefined) break;
      if (existing !== parts[i]) {
        report({ path: here, reason: "case_collision", existing: parts.slice(0, i).concat(existing).join("/") });
        break;
      }
      const abs = join(dir, parts[i]);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) {
        report({ path: here, reason: "symlink" });
        break;
      }
      if (i === parts.length - 1) {
        report({ path: here, reason: "exists" });
        break;
      }
      if (!st.isDirectory()) {
        report({ path: here, reason: "not_a_directory" });
        break;
      }
      dir = abs;
    }
  }
  return conflicts;
}

/** The top-most template paths that do not exist in the target yet: what is moved in. */
function unitsOf(target: string, rels: readonly string[]): string[] {
  const units = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split("/");
    let i = 0;
    while (i < parts.length - 1 && existsSync(join(target, ...parts.slice(0, i + 1)))) i++;
    units.add(parts.slice(0, i + 1).join("/"));
  }
  return [...units].sort();
}

interface Journal {
  pid: number;
  target: string;
  units: string[];
}

/**
 * Undoes a move that did not finish: every unit already in the target goes back into the
 * stage (a file linked but not yet unlinked from the stage is simply unlinked from the
 * target), then the stage is deleted. Used on failure and for the leftovers of a killed apply.
 */
function undoMoves(stage: string, journal: Journal): void {
  const tree = join(stage, "tree");
  for (const unit of journal.units) {
    const inTarget = join(journal.target, unit);
    const inStage = join(tree, unit);
    let t;
    try {
      t = lstatSync(inTarget);
    } catch {
      continue;
    }
    if (existsSync(inStage)) {
      // Linked but the stage copy is still there: the same inode means it is ours.
      if (t.isFile() && lstatSync(inStage).ino === t.ino) unlinkSync(inTarget);
      continue;
    }
    mkdirSync(dirname(inStage), { recursive: true });
    renameSync(inTarget, inStage);
  }
  rmSync(stage, { recursive: true, force: true });
  fsyncDir(journal.target);
}

const JOURNAL_PURPOSE = "scaffold-journal";

/**
 * The journal of a stage, when gjc wrote it for this user and every unit it names is a plain
 * relative path (so undoing it renames nothing outside the target); undefined otherwise.
 */
function readStageJournal(ctx: Context, stage: string, target: string): { journal: Journal } | { problem: string } {
  let st;
  try {
    st = lstatSync(stage);
  } catch {
    return { problem: "it is gone" };
  }
  if (!st.isDirectory()) return { problem: "it is not a directory" };
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  if (uid !== undefined && st.uid !== uid) return { problem: `it belongs to another user (uid ${st.uid})` };
  const read = readStateJson(ctx, join(stage, "journal.json"), { purpose: JOURNAL_PURPOSE, maxBytes: 1024 * 1024 });
  if (read.kind !== "ok") return { problem: read.kind === "missing" ? "it holds no journal" : read.problem };
  const j = read.value as Partial<Journal>;
  if (typeof j.pid !== "number" || j.target !== target || !Array.isArray(j.units))
    return { problem: "its journal is for another target" };
  for (const unit of j.units) {
    if (typeof unit !== "string" || relativePathProblem(unit) !== undefined || hasControlChars(unit))
      return {
        problem: `its journal names ${JSON.stringify(String(unit).slice(0, 100))}, which is not a path inside the target`,
      };
  }
  return { journal: j as Journal };
}

/**
 * Leftover stages beside `target` from applies that were killed; each one gjc wrote for this
 * user is undone. A directory with the stage prefix that is not provably ours (no journal
 * signed for this user, another user's, units that leave the target) may have come with a
 * clone or another user: it is warned about and left alone, never replayed or removed.
 */
export function sweepScaffoldLeftovers(ctx: Context, target: string): string[] {
  const parent = dirname(target);
  const prefix = stagePrefix(target);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const swept: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const stage = join(parent, name);
    const read = readStageJournal(ctx, stage, target);
    if ("problem" in read) {
      // Killed between making the stage and writing its journal: empty, so rmdir is all there is to undo.
      if (read.problem === "it holds no journal" && tryRmdir(stage)) swept.push(stage);
      else warnForeignState(ctx, "the scaffold stage", stage, read.problem);
      continue;
    }
    const { journal } = read;
    if (journal.pid !== process.pid && processAlive(journal.pid)) continue; // another apply is running
    undoMoves(stage, journal);
    swept.push(stage);
  }
  return swept;
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

function writeStageJournal(ctx: Context, stage: string, journal: Journal): void {
  writeFileAtomic(join(stage, "journal.json"), signedStateText(ctx, JOURNAL_PURPOSE, journal), { mode: 0o600 });
}

function refuse(target: string, conflicts: ScaffoldConflict[]): GjcError {
  const unsafe = conflicts.some((c) => c.reason === "symlink" || c.reason === "unsafe_name");
  const list = conflicts
    .map((c) => `${c.path} (${c.reason.replace(/_/g, " ")}${c.existing ? ` with ${c.existing}` : ""})`)
    .join(", ");
  return new GjcError({
    code: unsafe ? "unsafe_path" : "scaffold_conflict",
    message: `The scaffold cannot be applied to ${target}: ${conflicts.length} conflicting path${conflicts.length === 1 ? "" : "s"}: ${list}. Nothing was written.`,
    hint: unsafe
      ? "A scaffold never writes through a symbolic link; pick a target without links in the way."
      : "Nothing is ever overwritten: move or remove those paths, or pick another target directory.",
    details: { target, conflicts },
    exit: unsafe ? ExitCode.refused : ExitCode.failed,
  });
}

/** Reads the installed template bytes and checks them against the hashes recorded at install. */
function verifiedContents(bundleDir: string, pluginName: string, scaffold: ScaffoldEntry): Map<string, Uint8Array> {
  const contents = new Map<string, Uint8Array>();
  for (const f of scaffold.files) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = readRegularFile(join(bundleDir, f.path), C2_LIMITS.maxFileBytes).bytes;
    } catch {
      bytes = undefined;
    }
    if (!bytes || bytes.length !== f.size || sha256Hex(bytes) !== f.sha256) {
      throw new GjcError({
        code: "runtime_mismatch",
        message: `${pluginName}'s installed file ${f.path} no longer matches what was installed, so the scaffold was not applied.`,
        hint: `Run "gjc plugin verify ${pluginName}" (it quarantines a drifted bundle), then reinstall it.`,
        exit: ExitCode.refused,
      });
    }
    contents.set(f.rel, bytes);
  }
  return contents;
}

export interface ApplyOptions {
  address: string;
  target: string;
  dryRun?: boolean;
}

export async function applyScaffold(ctx: Context, o: ApplyOptions): Promise<ScaffoldApplyResult> {
  const { bundle: bundleName, scaffold: key } = parseAddress(o.address);
  const { findInstalledC2 } = await import("../c2store/records.ts");
  const bundle = findInstalledC2(ctx, bundleName);
  if (!bundle)
    throw new GjcError({
      code: "not_installed",
      message: `No C2 bundle named ${bundleName} is installed.`,
      hint: 'Run "gjc plugin scaffold list" to see the scaffolds of installed bundles.',
    });
  if (bundle.quarantine) {
    throw new GjcError({
      code: "quarantined",
      message: `${bundle.name} is quarantined (${bundle.quarantine.reason}); its scaffolds are not applied.`,
      hint: `Run "gjc plugin verify ${bundle.name}" or reinstall it.`,
      exit: ExitCode.refused,
    });
  }
  if (!bundle.enabled) {
    throw new GjcError({
      code: "plugin_disabled",
      message: `${bundle.name} is disabled, so its scaffolds are not offered.`,
      hint: `Run "gjc plugin enable ${bundle.name} --user" first.`,
      exit: ExitCode.refused,
    });
  }
  const scaffold = findScaffold(bundle, key);
  if (hasControlChars(o.target) || o.target === "")
    throw new GjcError({ code: "usage", message: "The target directory must be a plain path.", exit: ExitCode.usage });
  const target = resolve(ctx.cwd, o.target);
  const parent = dirname(target);
  let parentStat;
  try {
    parentStat = lstatSync(parent);
  } catch {
    parentStat = undefined;
  }
  if (!parentStat?.isDirectory()) {
    throw new GjcError({
      code: "missing_directory",
      message: `The parent of the target, ${parent}, is not an existing directory.`,
      hint: "Create it first; a scaffold creates at most the target directory itself.",
      exit: ExitCode.failed,
    });
  }

  // A dry run changes nothing, leftovers included; the conflicts it reports show them.
  if (!o.dryRun) sweepScaffoldLeftovers(ctx, target);
  const rels = scaffold.files.map((f) => f.rel);
  const conflicts = judgeTarget(target, rels);
  if (conflicts.length > 0) throw refuse(target, conflicts);
  const contents = verifiedContents(bundle.bundleDir, bundle.name, scaffold);
  const createdTarget = !existsSync(target);
  const result: ScaffoldApplyResult = {
    plugin: bundle.id,
    pluginName: bundle.name,
    scaffold: { id: scaffold.id, name: scaffold.name, path: scaffold.path, title: scaffold.title },
    target,
    dryRun: Boolean(o.dryRun),
    written: false,
    createdTarget,
    files: scaffold.files.map((f) => ({ path: f.rel, bytes: f.size, sha256: f.sha256, mode: f.mode })),
  };
  if (o.dryRun) return result;

  const stage = join(parent, `${stagePrefix(target)}${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  const tree = join(stage, "tree");
  const files: StoredFile[] = scaffold.files.map((f) => ({
    path: f.rel,
    sha256: f.sha256,
    bytes: f.size,
    mode: f.mode,
  }));
  mkdirSync(stage, { mode: 0o700 });
  let journal: Journal | undefined;
  try {
    // Signed before anything is staged, so a later sweep can tell this stage from a planted one.
    writeStageJournal(ctx, stage, { pid: process.pid, target, units: [] });
    writeFiles(tree, files, contents, () => crashPoint(ctx, "scaffold:staging-half"));
    fsyncDir(stage);
    if (createdTarget) {
      crashPoint(ctx, "scaffold:before-rename");
      // One rename: the target appears whole or not at all. (A directory created meanwhile
      // makes it fail unless empty; an empty one holds nothing to overwrite.)
      renameSync(tree, target);
      fsyncDir(parent);
    } else {
      journal = { pid: process.pid, target, units: unitsOf(target, rels) };
      writeStageJournal(ctx, stage, journal);
      for (let i = 0; i < journal.units.length; i++) {
        const unit = journal.units[i];
        const from = join(tree, unit);
        const to = join(target, unit);
        if (lstatSync(from).isDirectory()) {
          if (existsSync(to))
            throw new GjcError({
              code: "scaffold_conflict",
              message: `${unit} appeared in ${target} while the scaffold was being applied; nothing was written.`,
              exit: ExitCode.failed,
            });
          renameSync(from, to);
        } else {
          linkSync(from, to); // EEXIST if a file appeared meanwhile: never replaced
          unlinkSync(from);
        }
        if (i === 0) crashPoint(ctx, "scaffold:moved-one");
      }
      fsyncDir(target);
    }
    rmSync(stage, { recursive: true, force: true });
  } catch (error) {
    if (journal) undoMoves(stage, journal);
    else rmSync(stage, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code === "EEXIST" || (error as NodeJS.ErrnoException).code === "ENOTEMPTY") {
      throw new GjcError({
        code: "scaffold_conflict",
        message: `A path of the scaffold appeared in ${target} while it was being applied; nothing was written.`,
        hint: "Run the apply again to see the conflicts.",
        exit: ExitCode.failed,
      });
    }
    throw error;
  }
  result.written = true;
  return result;
}
