/**
 * Smooth weighted round-robin (nginx's): each turn every candidate gains its weight, the one with
 * the most goes and pays back the turn's total. Over any run the shares follow the weights exactly,
 * spread out rather than in bursts. Candidates may change between turns (a channel taken out simply
 * stops gaining); state is kept per key (one per family, model and tier).
 */
export class SmoothWeightedRoundRobin {
  private readonly current = new Map<string, Map<string, number>>();

  /** The next of `candidates` (weights > 0); undefined when there is none. */
  next<T extends { readonly id: string }>(
    key: string,
    candidates: readonly T[],
    weightOf: (c: T) => number,
  ): T | undefined {
    if (candidates.length <= 1) return candidates[0];
    let state = this.current.get(key);
    if (!state) this.current.set(key, (state = new Map()));
    let total = 0;
    let best: T | undefined;
    let bestScore = -Infinity;
    for (const candidate of candidates) {
      const weight = weightOf(candidate);
      total += weight;
      const score = (state.get(candidate.id) ?? 0) + weight;
      state.set(candidate.id, score);
      if (score > bestScore) {
        bestScore = score;
        best = candidate;
      }
    }
    if (best) state.set(best.id, bestScore - total);
    return best;
  }
}
