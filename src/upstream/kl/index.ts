/** kl upstream protocol: API description, transforms and the client that wires them. */
import type { UpstreamVendor } from '../vendor';
import { vendorEnvNames } from '../vendor';
import { KL_PATH_PREFIX } from './kl.api';
import { KL_REFUSALS } from './kl.error';
import { KlAuth } from './kl.auth';
import { KlClient } from './kl.client';
import { KL_SMOKE_PLAN } from './kl.smoke';

export { KL_CALL_PATHS, KL_OPERATIONS, KL_PATHS } from './kl.api';
export type { KlCallPath, KlOperation } from './kl.api';
export { KlAuth } from './kl.auth';
export { KlClient } from './kl.client';
export type { KlCallOptions } from './kl.client';
export { KL_STATUS } from './kl.status';
export { KL_SMOKE_PLAN } from './kl.smoke';

/** kl's upstream: API key or HS256 JWT from an access/secret key pair. */
export const KL_VENDOR: UpstreamVendor = {
  id: 'kl',
  client: KlClient,
  providers: [KlAuth],
  pathPrefix: KL_PATH_PREFIX,
  env: vendorEnvNames('kl', { keyPair: true }),
  smokePlan: KL_SMOKE_PLAN,
  outOfBalanceCodes: KL_REFUSALS.outOfBalanceCodes,
};
