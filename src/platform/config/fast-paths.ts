/**
 * `FAST_PATHS`: whether the gateway's hand-written speed pieces run (the register is
 * docs/hand-written.md). Off, each piece takes its library's own public path instead, with the same
 * answers: the fallback when a library upgrade breaks a piece, and the measure of what each one buys.
 * `FAST_PATHS_OFF` turns off only the pieces it names (one broken by an upgrade, or one measured alone).
 *
 * Process-wide, as one process serves one gateway: `createGatewayApp` sets it from the
 * configuration before anything is built, and each piece reads it once, when it is created.
 */
export const FAST_PATH_PIECES = [
  'express-classes',
  'axios-adapter',
  'validation-cache',
  'hot-sql',
  'group-commit',
  'wal-checkpointer',
  'insert-row',
  'server-timing',
  'idle-scavenge',
  'sync-small-files',
] as const;

export type FastPathPiece = (typeof FAST_PATH_PIECES)[number];

let on = true;
let off = new Set<FastPathPiece>();

export function setFastPaths(value: boolean, piecesOff: readonly FastPathPiece[] = []): void {
  on = value;
  off = new Set(piecesOff);
}

/** Whether `piece` runs: fast paths on, and that piece not turned off by name. */
export function fastPathsOn(piece: FastPathPiece): boolean {
  return on && !off.has(piece);
}
