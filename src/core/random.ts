/** `chars` random lowercase hex characters (unguessable names for temporary and staging files). */
export function randomHex(chars: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(chars / 2)));
  return Buffer.from(bytes).toString("hex").slice(0, chars);
}
