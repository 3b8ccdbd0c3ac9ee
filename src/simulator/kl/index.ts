import { hexId } from '../ids';
import type { SimVendor } from '../sim-vendor';
import { KL_ERRORS } from './kl-envelope';
import { KL_SIM_MODELS } from './kl-models';
import { createKlSimulator } from './kl-simulator';

/** kl's double: API key or an access/secret key pair (HS256 JWT). */
export const KL_SIM_VENDOR: SimVendor = {
  id: 'kl',
  errors: KL_ERRORS,
  statusWords: { fields: ['task_status'], regress: { succeed: 'processing', failed: 'processing' } },
  models: KL_SIM_MODELS,
  defaultPort: 4001,
  randomCredentials: () => ({
    apiKey: `sim-kl-${hexId(16)}`,
    accessKey: `sim-ak-${hexId(8)}`,
    secretKey: `sim-sk-${hexId(16)}`,
  }),
  create: createKlSimulator,
};
