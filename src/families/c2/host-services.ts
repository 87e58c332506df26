/**
 * Services this host provides to C2 runtimes. `runtime.inject` naming anything else leaves the
 * runtime pending (never a silent success); `optionalInject` may name anything.
 */
export const HOST_SERVICES: readonly string[] = ["extensions-runtime"];

export function missingServices(inject: readonly string[], provided: readonly string[] = HOST_SERVICES): string[] {
  return inject.filter((s) => !provided.includes(s));
}
