import type { SimModels } from '../sim-models';

/** The models this simulated upstream knows: public name -> the vendor's own name. */
export const VD_SIM_MODELS: SimModels = {
  'vdq3-mix': 'viduq3-mix',
  'vdq3-turbo': 'viduq3-turbo',
  vdq3: 'viduq3',
  'vdq2-pro': 'viduq2-pro',
  vdq2: 'viduq2',
  vdq1: 'viduq1',
  'vd2.0': 'vidu2.0',
};
