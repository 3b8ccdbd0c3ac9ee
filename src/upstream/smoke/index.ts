/** `npm run smoke:upstream`: the upstream clients against the real services, field by field. */
export { runSmoke } from './run-smoke';
export type { SmokeDeps } from './smoke-family';
export type { SmokePlan } from './smoke-plans';
export { formatSmokeReport, smokeExitCode } from './smoke-report';
export type { SmokeRow, Verdict } from './smoke-types';
