import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../bundle/atomic-fs.ts";
import { sha256Hex } from "../bundle/hash.ts";
import { pathInside } from "../bundle/path-safety.ts";
import type { Context } from "../core/context.ts";
import { GjcError } from "../core/errors.ts";
import { detectTarget } from "../families/detect.ts";
import { invalidBundleError } from "../families/refusal.ts";
import { writeTar, type TarInput } from "./tar-writer.ts";
import { ExitCode } from "../core/exit-codes.ts";

export interface PackResult {
  file: string;
  sha256: string;
  bytes: number;
  family: "c2" | "gjc";
  name: string;
  version: string;
  entries: { path: string; sha256: string; bytes: number; mode: number }[];
  /** pack --sign: the signature written beside the archive. */
  signature?: { file: string; integrity: string; fingerprint: string; keyType: string };
}

/** gzip's OS byte is whatever zlib was built for; pin it to "Unix" so every platform packs the same bytes. */
const GZIP_OS_UNIX = 3;

/**
 * Packs exactly the files install would copy (the same validation pipeline, the same bytes)
 * into a reproducible .tgz: sorted entries, fixed time and owner, normalized modes.
 */
export async function packBundle(
  ctx: Context,
  input: string,
  output?: string,
  o: { signWith?: string } = {},
): Promise<PackResult> {
  const target = detectTarget(input, ctx.cwd);
  if (target.kind === "catalog") {
    throw new GjcError({
      code: "wrong_target",
      message: `${input} is a catalog; pack takes a bundle directory.`,
      hint: "Pack each bundle of the catalog on its own.",
      exit: ExitCode.usage,
    });
  }
  const { name, version, files } = await installPlan(target);
  const entries = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tarInputs: TarInput[] = entries.map((f) => ({
    path: f.path,
    bytes: f.bytes,
    executable: (f.mode & 0o111) !== 0,
  }));
  const gz = Bun.gzipSync(writeTar(tarInputs) as Uint8Array<ArrayBuffer>, { level: 6 });
  gz[9] = GZIP_OS_UNIX;

  const file = resolve(ctx.cwd, output ?? join(dirname(target.dir), `${name}-${version}.tgz`));
  if (pathInside(target.dir, file) !== undefined) {
    throw new GjcError({
      code: "pack_output_inside_bundle",
      message: `The archive ${file} would be written inside the bundle, so the next pack would include it.`,
      hint: "Write it next to the bundle instead, e.g. -o ../bundle.tgz.",
      exit: ExitCode.usage,
    });
  }
  // The key is checked before the archive is written, so a key that cannot sign leaves nothing.
  const signer =
    o.signWith !== undefined
      ? await (await import("../signing/load-signer.ts")).loadSigner(ctx, o.signWith)
      : undefined;
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, gz);
  const signature = signer ? await (await import("./sign.ts")).signWithSigner(ctx, file, "archive", signer) : undefined;
  return {
    ...(signature
      ? {
          signature: {
            file: signature.file,
            integrity: signature.integrity,
            fingerprint: signature.fingerprint,
            keyType: signature.keyType,
          },
        }
      : {}),
    file,
    sha256: sha256Hex(gz),
    bytes: gz.length,
    family: target.kind,
    name,
    version,
    entries: entries.map((f) => ({
      path: f.path,
      sha256: f.sha256,
      bytes: f.bytes.length,
      mode: (f.mode & 0o111) !== 0 ? 0o755 : 0o644,
    })),
  };
}

interface PlanFile {
  path: string;
  sha256: string;
  mode: number;
  bytes: Uint8Array;
}

async function installPlan(target: {
  kind: "c2" | "gjc";
  dir: string;
}): Promise<{ name: string; version: string; files: PlanFile[] }> {
  if (target.kind === "gjc") {
    const { compileGjcBundle } = await import("../families/gjc/compile.ts");
    const result = compileGjcBundle(target.dir, { keepContents: true });
    if (!result.bundle) throw invalidBundleError(target.dir, result.diagnostics, "packed");
    const b = result.bundle;
    return {
      name: b.name,
      version: b.version,
      files: b.files.map((f) => ({
        path: f.path,
        sha256: f.sha256,
        mode: f.mode ?? 0o644,
        bytes: b.contents!.get(f.path)!,
      })),
    };
  }
  const { planC2Bundle } = await import("../families/c2/validate.ts");
  const plan = planC2Bundle(target.dir, { keepContents: true });
  if (!plan.ok || !plan.manifest) throw invalidBundleError(target.dir, plan.diagnostics, "packed");
  const contents = plan.collection.contents!;
  return {
    name: plan.manifest.name,
    version: plan.manifest.version,
    files: plan.collection.files.map((f) => ({
      path: f.path,
      sha256: f.sha256,
      mode: f.mode,
      bytes: contents.get(f.path)!,
    })),
  };
}
