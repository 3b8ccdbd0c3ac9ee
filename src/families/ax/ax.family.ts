import type { FamilyDefinition } from '../family-definition';
import { AX_FAMILY_ID, AX_REFERENCE2VIDEO } from './ax.ids';
import { AX_ERRORS } from './ax.errors';
import { AxModule } from './ax.module';
import { AX_PRICING_RULE, AxModelPrice } from './ax.pricing';
import { presentAxCreatedAnswer, presentAxTask } from './reference-video/ax-task.presenter';

const capabilities = ['reference2video'];

/** ax: reference-to-video with two request protocols chosen by model (`/ax/api/v1/...`). */
export const AX_FAMILY: FamilyDefinition = {
  id: AX_FAMILY_ID,
  models: [
    ...['wx2.7-r2v', 'wx2.7-r2v-2026-06-12'].map((name) => ({
      name,
      family: AX_FAMILY_ID,
      protocol: 'ax-r2v-new',
      capabilities,
    })),
    ...['wx2.6-r2v', 'wx2.6-r2v-flash'].map((name) => ({
      name,
      family: AX_FAMILY_ID,
      protocol: 'ax-r2v-old',
      capabilities,
    })),
  ],
  statusWords: { submitted: 'PENDING', succeeded: 'SUCCEEDED', failed: 'FAILED', cancelled: 'CANCELED' },
  errors: AX_ERRORS,
  actions: {
    [AX_REFERENCE2VIDEO]: {
      upstreamOperation: 'r2v',
      present: (task) => presentAxTask(task),
      presentCreated: presentAxCreatedAnswer,
    },
  },
  pricing: { entry: AxModelPrice, rules: { 'ax-r2v': AX_PRICING_RULE } },
  // The upstream cannot look a task up by a reference of ours.
  lookupByReference: false,
  module: AxModule,
};
