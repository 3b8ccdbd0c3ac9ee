/** ax upstream protocol: API description, transforms and the client that wires them. */
import type { UpstreamVendor } from '../vendor';
import { vendorEnvNames } from '../vendor';
import { AX_PATH_PREFIX } from './ax.api';
import { AX_REFUSALS } from './ax.error';
import { AxClient } from './ax.client';
import { AX_SMOKE_PLAN } from './ax.smoke';

export { AX_ASYNC_HEADER, AX_ASYNC_HEADER_VALUE, AX_OPERATIONS, AX_PATHS } from './ax.api';
export type { AxOperation } from './ax.api';
export { AxClient } from './ax.client';
export { AX_LOST_REASON } from './ax.lost';
export { AX_LOST_STATUS, AX_STATUS } from './ax.status';
export { AX_SMOKE_PLAN } from './ax.smoke';

/** ax's upstream: bearer API key, asynchronous task creation. */
export const AX_VENDOR: UpstreamVendor = {
  id: 'ax',
  client: AxClient,
  pathPrefix: AX_PATH_PREFIX,
  env: vendorEnvNames('ax'),
  smokePlan: AX_SMOKE_PLAN,
  outOfBalanceCodes: AX_REFUSALS.outOfBalanceCodes,
};
