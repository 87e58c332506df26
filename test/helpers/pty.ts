/**
 * Runs a command on a real pseudo-terminal (Bun.spawn's `terminal` option, Bun ≥ 1.3.5), so a
 * test can see what a user's terminal sees without util-linux script(1) or any other tool.
 * stdin, stdout and stderr of the child are all the terminal; the output is everything the
 * child wrote, read to the terminal's end (EOF), not just until the process exited.
 */
export async function runInTerminal(
  argv: string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ output: string; exitCode: number }> {
  const chunks: Uint8Array[] = [];
  const { promise: drained, resolve } = Promise.withResolvers<void>();
  const proc = Bun.spawn(argv, {
    env: opts.env,
    cwd: opts.cwd,
    terminal: { cols: 120, rows: 40, data: (_t, d) => chunks.push(new Uint8Array(d)), exit: () => resolve() },
  });
  try {
    const exitCode = await proc.exited;
    await drained;
    return { output: Buffer.concat(chunks).toString("utf8"), exitCode };
  } finally {
    proc.terminal?.close();
  }
}
