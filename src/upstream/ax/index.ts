/** Family B (`ax`) upstream protocol: API description, transforms and the client that wires them. */
export { AX_ASYNC_HEADER, AX_ASYNC_HEADER_VALUE, AX_OPERATIONS, AX_PATHS } from './ax.api';
export type { AxOperation } from './ax.api';
export { AxClient } from './ax.client';
export { AX_LOST_REASON } from './ax.lost';
export { AX_LOST_STATUS, AX_STATUS } from './ax.status';
