import type { Scope } from "./registry-types.ts";

export const leftoversWarning = (scope: Scope, n: number) =>
  `Removed ${n} leftover item${n === 1 ? "" : "s"} of an interrupted gjc command from the ${scope} scope.`;
