import type { FamilyDefinition } from '../family-definition';
import { presentVdCreated, presentVdCreations } from './reference-video/vd-task.presenter';
import { VD_MODEL_NAMES } from './rules/vd-model-rules';
import { VD_ERRORS } from './vd.errors';
import { VD_FAMILY_ID, VD_REFERENCE2VIDEO } from './vd.ids';
import { VdModule } from './vd.module';
import { VD_PRICING_RULE, VdModelPrice } from './vd.pricing';

/** vd: reference-to-video in subject and non-subject mode (`/vd/ent/v2/...`). */
export const VD_FAMILY: FamilyDefinition = {
  id: VD_FAMILY_ID,
  models: VD_MODEL_NAMES.map((name) => ({
    name,
    family: VD_FAMILY_ID,
    protocol: 'vd-ref2video',
    capabilities: ['reference2video'],
  })),
  statusWords: { submitted: 'created', succeeded: 'success', failed: 'failed' },
  errors: VD_ERRORS,
  actions: {
    [VD_REFERENCE2VIDEO]: {
      upstreamOperation: 'reference2video',
      present: presentVdCreations,
      presentCreated: (task) => ({ body: presentVdCreated(task) }),
    },
  },
  pricing: { entry: VdModelPrice, rules: { 'vd-r2v': VD_PRICING_RULE } },
  // The upstream cannot look a task up by a reference of ours.
  lookupByReference: false,
  module: VdModule,
};
