/** The one exit-code table (DESIGN §5). Every verb maps its outcome onto these. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  refused: 3,
  unreachable: 4,
  lockBusy: 5,
  internal: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
