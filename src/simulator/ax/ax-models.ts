import type { SimModels } from '../sim-models';

/** The models this simulated upstream knows: public name -> the vendor's own name. */
export const AX_SIM_MODELS: SimModels = {
  'wx2.7-r2v': 'wan2.7-r2v',
  'wx2.7-r2v-2026-06-12': 'wan2.7-r2v-2026-06-12',
  'wx2.6-r2v': 'wan2.6-r2v',
  'wx2.6-r2v-flash': 'wan2.6-r2v-flash',
};
