import { ModelSelector } from '../../../core/accounts/guards/model-access.guard';
import { GatewayError } from '../../../platform/errors';
import { klModelSelector } from '../kl-model-selection';
import { KL_EDITING_TASK_MODEL } from '../kl.ids';

/** kl's other models: known, so naming one on the task endpoint is 400, not 404. */
const OTHER_KL_MODELS = ['kl-v1'];

/**
 * The editing-task endpoint's selection: the kl rule with its own default `kl-v1-6`. A
 * kl model other than kl-v1-6 is refused here, before the grant lookup; an unknown name goes
 * on to the guard's 404 `model_not_found`.
 */
export const klEditingTaskSelection: ModelSelector = klModelSelector(KL_EDITING_TASK_MODEL, (name, param) => {
  if (OTHER_KL_MODELS.includes(name))
    throw GatewayError.invalid(`${param} must be ${KL_EDITING_TASK_MODEL} on the editing task endpoint.`, param);
});
