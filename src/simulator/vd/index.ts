import { hexId } from '../ids';
import type { SimVendor } from '../sim-vendor';
import { VD_ERRORS } from './vd-errors';
import { VD_SIM_MODELS } from './vd-models';
import { createVdSimulator } from './vd-simulator';

/** vd's double: `Token` API key. */
export const VD_SIM_VENDOR: SimVendor = {
  id: 'vd',
  errors: VD_ERRORS,
  statusWords: { fields: ['state'], regress: { success: 'processing', failed: 'processing' } },
  models: VD_SIM_MODELS,
  defaultPort: 4003,
  randomCredentials: () => ({ apiKey: `sim-vd-${hexId(16)}` }),
  create: createVdSimulator,
};
