/** Time formats of the native wire shapes, in one place. All UTC. */

/** ax: `YYYY-MM-DD HH:mm:ss.SSS`. */
export function axTimestamp(ms: number | null | undefined): string | undefined {
  if (ms === null || ms === undefined) return undefined;
  const iso = new Date(ms).toISOString();
  // `YYYY-MM-DDTHH:mm:ss.sssZ` cut around the T (a query answer formats one or two of these);
  // a six-digit year (beyond 9999) keeps the general form.
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : iso.replace('T', ' ').replace('Z', '');
}

/** vd: ISO 8601 with fractional seconds and `Z`. */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** kl list items: Unix seconds. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
