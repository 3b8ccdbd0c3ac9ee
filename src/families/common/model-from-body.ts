import { ModelSelector, modelFromBody } from '../../core/accounts/guards/model-access.guard';
import { refuseUnusableBody } from '../../platform/validation/validate-dto';

/**
 * The body's `model`, required, once the body is known to be a JSON object: any other body gets the
 * 400 every route gives it ("The request body must be a JSON object.", no `param`), not "model is required".
 * Only the shape is judged here; unknown fields are the rules' to refuse.
 */
export const modelFromObjectBody: ModelSelector = (body) => {
  refuseUnusableBody(body, { allowUnknown: true });
  return modelFromBody(body);
};
