/**
 * `FAST_PATHS`: whether the gateway's hand-written speed pieces run (the register is
 * docs/hand-written.md). Off, each piece takes its library's own public path instead, with the same
 * answers: the fallback when a library upgrade breaks a piece, and the measure of what each one buys.
 *
 * Process-wide, as one process serves one gateway: `createGatewayApp` sets it from the
 * configuration before anything is built, and each piece reads it once, when it is created.
 */
let on = true;

export function setFastPaths(value: boolean): void {
  on = value;
}

export function fastPathsOn(): boolean {
  return on;
}
