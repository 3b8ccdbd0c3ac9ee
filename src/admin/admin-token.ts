/** Injection token of the effective admin token (configured, or generated at start). */
export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');
