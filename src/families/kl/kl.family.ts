import type { FamilyDefinition } from '../family-definition';
import { presentKlEditingTask } from './editing/kl-editing-task.presenter';
import { KL_ERRORS } from './kl.errors';
import { KL_CUSTOM_VOICES, KL_FAMILY_ID, KL_MULTI_ELEMENTS } from './kl.ids';
import { KlModule } from './kl.module';
import { KL_PRICING_RULES, KlModelPrice } from './kl.pricing';
import { presentKlVoiceTask } from './voices/kl-voice-task.presenter';
import { klCreatedData, klEnvelope } from './tasks/kl-task.presenter';
import type { TaskEntity } from '../../core/tasks/entities/task.entity';
import { recordSucceededVoices } from './voices/kl-voices.repository';
import { KlSessionEntity } from './sessions/kl-session.entity';
import { KlVoiceEntity } from './voices/kl-voice.entity';
import { KlSessions1764200000000 } from './migrations/1764200000000-kl-sessions';
import { KlVoices1764300000000 } from './migrations/1764300000000-kl-voices';
import { KlSessionLease1765050000000 } from './migrations/1765050000000-kl-session-lease';

/** Both task kinds answer a creation with the same envelope. */
const klCreated = (task: TaskEntity, requestId: string) => ({ body: klEnvelope(klCreatedData(task), requestId) });

const capabilities = ['editing.selection', 'editing.task', 'voices'];

/** kl: editing sessions and tasks, custom and preset voices (`/kl/v1/...`). */
export const KL_FAMILY: FamilyDefinition = {
  id: KL_FAMILY_ID,
  models: ['kl-v1', 'kl-v1-6'].map((name) => ({ name, family: KL_FAMILY_ID, protocol: 'kl-v1', capabilities })),
  statusWords: { submitted: 'submitted', succeeded: 'succeed', failed: 'failed' },
  errors: KL_ERRORS,
  actions: {
    [KL_MULTI_ELEMENTS]: {
      upstreamOperation: 'multi_elements',
      present: (task) => presentKlEditingTask(task),
      presentCreated: klCreated,
    },
    [KL_CUSTOM_VOICES]: {
      upstreamOperation: 'custom_voices',
      present: (task) => presentKlVoiceTask(task),
      presentCreated: klCreated,
      // Every voice a succeeded task produced is the account's from the moment the task succeeds.
      onSucceeded: recordSucceededVoices,
    },
  },
  pricing: { entry: KlModelPrice, rules: KL_PRICING_RULES },
  // The upstream finds a task by the `external_task_id` the gateway sends (its own task ID).
  lookupByReference: true,
  module: KlModule,
  entities: [KlSessionEntity, KlVoiceEntity],
  migrations: [KlSessions1764200000000, KlVoices1764300000000, KlSessionLease1765050000000],
};
