/**
 * The candidate nearest to `name` by edit distance (case-insensitive), when near enough to be a
 * plausible typo: at most a third of the longer name's length. Undefined otherwise.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = name.toLowerCase().slice(0, 128);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(2, Math.ceil(Math.max(wanted.length, best.length) / 3)) ? best : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions each cost one. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
