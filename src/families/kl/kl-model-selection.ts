import { GatewayError } from '../../platform/errors';
import { ModelSelector, bodyFields } from '../../core/accounts/guards/model-access.guard';
import { KL_DEFAULT_MODEL } from './kl.ids';

/** Family A's rule (SPEC.md "Model selection"): `model_name`, else `model`, else `kl-v1`. */
export const klModelSelection: ModelSelector = (body) => {
  const fields = bodyFields(body);
  for (const param of ['model_name', 'model']) {
    const value = fields[param];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value === '') throw GatewayError.invalid(`${param} must be a non-empty string.`, param);
    return { name: value, param };
  }
  return { name: KL_DEFAULT_MODEL, param: 'model_name' };
};
