import type { Request } from 'express';
import type { ModelDescriptor } from '../../models/model-catalogue';
import type { Principal } from '../principal';

/** What the guards attach to a client request. */
export interface AuthenticatedRequest extends Request {
  principal: Principal;
  /** The model chosen for this request (absent on routes that select none). */
  selectedModel?: ModelDescriptor;
}
