import { ModelSelector, bodyFields } from '../../../core/accounts/guards/model-access.guard';
import { GatewayError } from '../../../platform/errors';
import { KL_EDITING_TASK_MODEL } from '../kl.ids';

/** Family A's other models: known, so naming one on the task endpoint is 400, not 404 (CONTRACT §7). */
const OTHER_KL_MODELS = ['kl-v1'];

/**
 * The editing-task endpoint's selection: `model_name`, else `model`, else its own default
 * `kl-v1-6` (SPEC.md endpoint 6). A family A model other than kl-v1-6 is refused here, before the
 * grant lookup; an unknown name goes on to the guard's 404 `model_not_found`.
 */
export const klEditingTaskSelection: ModelSelector = (body) => {
  const fields = bodyFields(body);
  for (const param of ['model_name', 'model']) {
    const value = fields[param];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value === '') throw GatewayError.invalid(`${param} must be a non-empty string.`, param);
    if (OTHER_KL_MODELS.includes(value)) throw GatewayError.invalid(`${param} must be ${KL_EDITING_TASK_MODEL} on the editing task endpoint.`, param);
    return { name: value, param };
  }
  return { name: KL_EDITING_TASK_MODEL, param: 'model_name' };
};
