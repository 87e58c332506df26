/**
 * Terminal styling for stderr and human stdout. Colour follows NO_COLOR / FORCE_COLOR first,
 * then whether the stream is a TTY (DESIGN §5); it is decided per stream, never globally.
 */
export interface Style {
  enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
}

/**
 * `isTTY` may be a function: it is then asked only when NO_COLOR / FORCE_COLOR leave the
 * answer open (finding out costs a module load at start-up).
 */
export function colorEnabled(env: Record<string, string | undefined>, isTTY: boolean | (() => boolean)): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return typeof isTTY === "function" ? isTTY() : isTTY;
}

export function makeStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
  };
}
