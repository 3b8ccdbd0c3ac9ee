/** Family A (`kl`) upstream protocol: API description, transforms and the client that wires them. */
export { KL_CALL_PATHS, KL_OPERATIONS, KL_PATHS } from './kl.api';
export type { KlCallPath, KlOperation } from './kl.api';
export { KlAuth } from './kl.auth';
export { KlClient } from './kl.client';
export type { KlCallOptions } from './kl.client';
export { KL_STATUS } from './kl.status';
