/**
 * The one set of `bun build --compile` flags every gjc binary is made with (dist/gjc, the
 * release binaries, the binary the tests build), so none of them can drift.
 *
 * - A standalone binary would otherwise load bunfig.toml (preload scripts!) and .env from the
 *   current directory: `gjc plugin validate .` inside a hostile bundle would run its code and
 *   let its .env redirect GJC_USER_DIR. The binary reads neither.
 * - Bytecode skips parsing at start-up; ESM + splitting keeps each lazily imported verb in its
 *   own chunk, so `gjc --version` loads only the entry.
 */
export const COMPILE_FLAGS = [
  "--compile",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
  "--bytecode",
  "--format=esm",
  "--splitting",
  "--minify",
  "--sourcemap=none",
] as const;
