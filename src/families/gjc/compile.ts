import { jsonErrorPath, parseBoundedJson } from "../../bundle/json.ts";
import { lstatSync } from "node:fs";
import { resolve } from "node:path";
import { DiagnosticSink, type Diagnostic } from "../../core/diagnostics.ts";
import { GJC_MANIFEST } from "../detect.ts";
import type { PlannedFile } from "../types.ts";
import { reportDuplicates } from "./collisions.ts";
import {
  compileAppendix,
  compileHook,
  compileMcp,
  compileSubskill,
  compileTool,
  type CompileScope,
  type SurfaceList,
} from "./compile-surfaces.ts";
import { APPENDIX_MAX_COUNT, APPENDIX_TOTAL_MAX_BYTES } from "./constants.ts";
import { DeclaredFileReader } from "./declared-files.ts";
import { MANIFEST_PTR, visible, withoutBom } from "./fields.ts";
import { parseGjcManifest } from "./manifest.ts";
import type { GjcManifest, GjcToolEntry, Located, ParsedManifest } from "./manifest-types.ts";
import type { GjcAppendixSurface, GjcSurface } from "./surface-types.ts";

export type {
  GjcSurface,
  GjcSurfaceKind,
  GjcToolSurface,
  GjcHookSurface,
  GjcMcpSurface,
  GjcAppendixSurface,
  GjcSubskillSurface,
} from "./surface-types.ts";
export type { GjcManifest } from "./manifest-types.ts";

export interface CompiledGjcBundle {
  name: string;
  version: string;
  /** SHA-256 of the raw manifest bytes (the bytes copied). */
  manifestSha256: string;
  /** The canonical normalized manifest (aliases resolved, fixed key order). */
  manifest: GjcManifest;
  surfaces: GjcSurface[];
  /** Every file install copies: the manifest first, then by path (code-unit order). */
  files: PlannedFile[];
  /** The exact bytes hashed, by path, when `keepContents` was asked for. */
  contents?: Map<string, Uint8Array>;
}

export interface CompileResult {
  /** Present only when no error diagnostic was reported. */
  bundle?: CompiledGjcBundle;
  diagnostics: Diagnostic[];
  /** Whatever could be read even when the bundle is invalid (validate shows name and version). */
  partial: { name: string | null; version: string | null };
}

/**
 * Compiles a GJC bundle directory into its surfaces and its copy plan, reading only the files
 * the manifest declares, as bytes. Nothing of the bundle is imported or executed. Every rule
 * reports a diagnostic; the bundle is returned only when none of them is an error.
 */
export function compileGjcBundle(root: string, opts: { keepContents?: boolean } = {}): CompileResult {
  const sink = new DiagnosticSink();
  const dir = resolve(root);
  const partial: CompileResult["partial"] = { name: null, version: null };
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    sink.error(
      "missing_file",
      dir,
      `The bundle directory ${dir} does not exist.`,
      "Pass the folder that holds gajae-plugin.json.",
    );
    return { diagnostics: sink.items, partial };
  }
  if (st.isSymbolicLink() || !st.isDirectory()) {
    sink.error(
      st.isSymbolicLink() ? "security_policy" : "missing_file",
      dir,
      `${dir} is ${st.isSymbolicLink() ? "a symbolic link" : "not a directory"}.`,
      "Pass the real folder that holds gajae-plugin.json.",
    );
    return { diagnostics: sink.items, partial };
  }

  using files = new DeclaredFileReader(dir, sink);
  const manifestFile = files.read(GJC_MANIFEST, MANIFEST_PTR, "The manifest");
  if (!manifestFile) return { diagnostics: sink.items, partial };
  const raw = decodeManifest(sink, manifestFile.data);
  if (raw === undefined) return { diagnostics: sink.items, partial };

  const parsed = parseGjcManifest(sink, raw.value);
  partial.name = parsed.name;
  partial.version = parsed.version;
  const scope: CompileScope = { sink, files, plugin: parsed.name ?? "" };
  const list: SurfaceList = { surfaces: [], where: new Map() };
  const keep = (surface: GjcSurface | undefined, at: string) => {
    if (!surface) return;
    list.surfaces.push(surface);
    list.where.set(surface, at);
  };

  const scopedTools: string[] = [];
  for (const { entry, at } of parsed.tools)
    if (typeof entry === "string" && files.read(entry, at, "Sub-skill tool")) scopedTools.push(entry);
  for (const decl of parsed.subskills) keep(compileSubskill(scope, decl, scopedTools), decl.at);
  for (const decl of parsed.tools)
    if (typeof decl.entry !== "string") keep(compileTool(scope, decl as Located<GjcToolEntry>), decl.at);
  for (const decl of parsed.hooks) keep(compileHook(scope, decl), decl.at);
  for (const decl of parsed.mcps) keep(compileMcp(scope, decl), decl.at);
  for (const decl of parsed.systemAppendices) keep(compileAppendix(scope, decl, "system-appendix"), decl.at);
  for (const decl of parsed.agentAppendices) keep(compileAppendix(scope, decl, "agent-appendix"), decl.at);
  const { surfaces, where } = list;

  reportDuplicates(sink, surfaces, where);
  warnAppendixBudget(sink, surfaces);

  if (sink.hasErrors || parsed.name === null || parsed.version === null) return { diagnostics: sink.items, partial };
  const bundle: CompiledGjcBundle = {
    name: parsed.name,
    version: parsed.version,
    manifestSha256: manifestFile.sha256,
    manifest: canonicalManifest(parsed),
    surfaces,
    files: files.planned(),
  };
  if (opts.keepContents) bundle.contents = files.contents();
  return { bundle, diagnostics: sink.items, partial };
}

/** UTF-8 (a leading BOM tolerated, as RFC 8259 allows), then JSON. */
function decodeManifest(sink: DiagnosticSink, bytes: Uint8Array): { value: unknown } | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    sink.error(
      "invalid_manifest",
      GJC_MANIFEST,
      "gajae-plugin.json is not valid UTF-8.",
      "Save the manifest as UTF-8.",
    );
    return undefined;
  }
  try {
    return { value: parseBoundedJson(withoutBom(text)) };
  } catch (error) {
    sink.error(
      "invalid_manifest",
      jsonErrorPath(GJC_MANIFEST, error),
      `gajae-plugin.json is not valid JSON (${visible((error as Error).message)}).`,
      "Fix the syntax; a JSON linter points at the exact spot.",
    );
    return undefined;
  }
}

/**
 * The render budget is shared by every installed bundle; one bundle that alone exceeds it
 * can never have all its appendices shown. That is worth knowing but not an error.
 */
function warnAppendixBudget(sink: DiagnosticSink, surfaces: GjcSurface[]): void {
  const appendices = surfaces.filter(
    (s): s is GjcAppendixSurface => s.kind === "system-appendix" || s.kind === "agent-appendix",
  );
  const count = appendices.length;
  const total = appendices.reduce((sum, s) => sum + s.bytes, 0);
  if (total > APPENDIX_TOTAL_MAX_BYTES) {
    sink.warning(
      "invalid_appendix",
      MANIFEST_PTR,
      `The appendices of this bundle add up to ${total} bytes; at most ${APPENDIX_TOTAL_MAX_BYTES} bytes (32 KiB) of appendices are rendered in a session, so some would be dropped.`,
      "Shorten or merge appendices.",
    );
  }
  if (count > APPENDIX_MAX_COUNT) {
    sink.warning(
      "invalid_appendix",
      MANIFEST_PTR,
      `The bundle declares ${count} appendices; at most ${APPENDIX_MAX_COUNT} are rendered in a session.`,
      "Merge appendices.",
    );
  }
}

function canonicalManifest(p: ParsedManifest): GjcManifest {
  return {
    kind: "gajae-code-plugin",
    name: p.name!,
    version: p.version!,
    subskills: entries(p.subskills),
    tools: entries(p.tools),
    hooks: entries(p.hooks),
    mcps: entries(p.mcps),
    system_appendix: entries(p.systemAppendices),
    "agent-appendix": entries(p.agentAppendices),
  };
}

const entries = <T>(located: Located<T>[]): T[] => located.map((d) => d.entry);
