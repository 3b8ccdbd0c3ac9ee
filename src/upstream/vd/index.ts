/** vd upstream protocol: API description, transforms and the client that wires them. */
import type { UpstreamVendor } from '../vendor';
import { vendorEnvNames } from '../vendor';
import { VD_PATH_PREFIX } from './vd.api';
import { VD_REFUSALS } from './vd.error';
import { VdClient } from './vd.client';
import { VD_SMOKE_PLAN } from './vd.smoke';

export { VD_OPERATIONS, VD_PATHS } from './vd.api';
export type { VdOperation } from './vd.api';
export { VdClient } from './vd.client';
export { VD_STATUS } from './vd.status';
export type { VdCreatedAnswer, VdCreation, VdCreationsAnswer, VdState, VdTaskFields } from './vd.wire';
export { VD_SMOKE_PLAN } from './vd.smoke';

/** vd's upstream: `Token` API key. */
export const VD_VENDOR: UpstreamVendor = {
  id: 'vd',
  client: VdClient,
  pathPrefix: VD_PATH_PREFIX,
  env: vendorEnvNames('vd'),
  smokePlan: VD_SMOKE_PLAN,
  outOfBalanceCodes: VD_REFUSALS.outOfBalanceCodes,
};
