/**
 * Shapes of client input no route can use and some drivers cannot store: a body nested deeper than
 * any request of the API (deep recursion would exhaust the stack in validators), and NUL
 * characters (PostgreSQL text refuses them). Refused up front with a 400 instead of a 500 later.
 */
export const MAX_BODY_DEPTH = 32;

/** The first problem of a parsed JSON body, or null. Iterative: safe on any depth. */
export function bodyShapeProblem(body: unknown): { message: string; param: string | null } | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: body, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        return { message: `${path || 'The body'} must not contain NUL characters.`, param: path || null };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH)
      return { message: `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`, param: null };
    const entries = Array.isArray(value)
      ? value.map((v, i) => [`[${i}]`, v] as const)
      : Object.entries(value).map(([k, v]) => [path ? `.${k}` : k, v] as const);
    for (const [step, child] of entries) {
      if (!Array.isArray(value) && step.includes('\u0000'))
        return { message: 'Field names must not contain NUL characters.', param: null };
      stack.push({ value: child, depth: depth + 1, path: `${path}${step}`.slice(0, 128) });
    }
  }
  return null;
}

/** True when the URL carries a NUL character, raw or percent-encoded. */
export function urlHasNul(url: string): boolean {
  return url.includes('%00') || url.includes('\u0000');
}
