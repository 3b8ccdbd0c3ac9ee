import { GatewayError } from '../../platform/errors';

/** 409: an operator's action the task's present state does not allow (the message says why); nothing changed. */
export function taskStateConflict(message: string): GatewayError {
  return new GatewayError(409, 'invalid_request', message);
}
