import { hexId } from '../ids';
import type { SimVendor } from '../sim-vendor';
import { AX_ERRORS } from './ax-errors';
import { AX_SIM_MODELS } from './ax-models';
import { createAxSimulator } from './ax-simulator';

/** ax's double: bearer API key. */
export const AX_SIM_VENDOR: SimVendor = {
  id: 'ax',
  errors: AX_ERRORS,
  statusWords: { fields: ['task_status'], regress: { SUCCEEDED: 'RUNNING', FAILED: 'RUNNING' } },
  models: AX_SIM_MODELS,
  defaultPort: 4002,
  randomCredentials: () => ({ apiKey: `sk-sim${hexId(16)}` }),
  create: createAxSimulator,
};
