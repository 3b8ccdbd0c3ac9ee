import { HANG, NativeErrors, SimAnswer } from './http/sim-answer';

/**
 * Test triggers written into a prompt (or voice name, or session video URL) as `sim:<word>`.
 * `long` (kl sessions only) makes the initialised source video 10 s instead of 5 s, so that
 * 10-second editing tasks can be exercised; `throttle` makes a create call answer the native 429.
 */
export type SimMarker = 'fail' | 'reject' | 'error500' | 'hang' | 'slow' | 'throttle' | 'long';

const MARKER_PATTERN = /sim:(fail|reject|error500|hang|slow|throttle|long)\b/g;

/** Markers found in any of the given values (non-strings are ignored). */
export function readMarkers(...texts: unknown[]): Set<SimMarker> {
  const found = new Set<SimMarker>();
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    for (const match of text.matchAll(MARKER_PATTERN)) found.add(match[1] as SimMarker);
  }
  return found;
}

/** The answer a create call gives instead of creating anything, when a marker asks for one. */
export function markerRefusal(markers: Set<SimMarker>, errors: NativeErrors): SimAnswer | undefined {
  if (markers.has('hang')) return HANG;
  if (markers.has('error500')) return errors.internal('simulated internal error (sim:error500)');
  if (markers.has('throttle')) return errors.throttled('simulated rate limit (sim:throttle)');
  if (markers.has('reject')) return errors.badRequest('simulated rejection of the request (sim:reject)');
  return undefined;
}
