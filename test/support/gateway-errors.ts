import { GatewayError } from '../../src/platform/errors';

/** The GatewayError `run` throws; fails the test when it throws none, and rethrows any other error. */
export function gatewayErrorOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected the request to be rejected');
}

/** What a client reads of an error first: its status, code and param. */
export const errorFields = (error: GatewayError) => ({ status: error.status, code: error.code, param: error.param });

/** A model the family does not serve, unknown or another family's. */
export const MODEL_NOT_FOUND = { status: 404, code: 'model_not_found', param: 'model' };

/** A request refused as invalid, naming the field at fault. */
export const invalidRequest = (param: string | null) => ({ status: 400, code: 'invalid_request', param });
