import type { SimModels } from '../sim-models';

/** The models this simulated upstream knows: public name -> the vendor's own name. */
export const KL_SIM_MODELS: SimModels = { 'kl-v1': 'kling-v1', 'kl-v1-6': 'kling-v1-6' };
