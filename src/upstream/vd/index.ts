/** Family C (`vd`) upstream protocol: API description, transforms and the client that wires them. */
export { VD_OPERATIONS, VD_PATHS } from './vd.api';
export type { VdOperation } from './vd.api';
export { VdClient } from './vd.client';
export { VD_STATUS } from './vd.status';
