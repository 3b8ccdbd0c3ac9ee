import type { IncomingMessage } from 'http';
import { CONTEXT, ContextRequest } from '../http/request-context';

/** What a request was about, for its metrics and its span: a family, a model, an account. */
export interface RequestLabels {
  family: string;
  model: string;
  accountId: string | undefined;
}

/** Not about a family (health, metrics, admin, an unmatched path), or no model named. */
export const NO_LABEL = '-';

const SUBJECTS = new WeakMap<object, { family: string; model: string }>();

/**
 * The family and model a request works on, noted by the task layer through the request's context
 * (a create knows them once the draft is built). Kept beside the context rather than on it: only
 * this module reads them.
 */
export function noteRequestSubject(context: object | undefined, family: string, model: string): void {
  if (context !== undefined) SUBJECTS.set(context, { family, model });
}

type LabelledRequest = ContextRequest & {
  route?: { path?: string };
  principal?: { account: { id: string } };
};

/**
 * Noted by the task layer when it was; otherwise a client route's family is its first path segment
 * (`/kl/v1/...`: each family mounts its routes under its own ID, so no list of families is needed
 * here). Only routes a client key reached are about a family.
 */
export function requestLabels(req: IncomingMessage): RequestLabels {
  const r = req as LabelledRequest;
  const accountId = r.principal?.account.id;
  const context = r[CONTEXT];
  const noted = context && SUBJECTS.get(context);
  if (noted) return { family: noted.family, model: noted.model, accountId };
  const path = r.route?.path;
  const family = accountId !== undefined && path ? familyOfRoute(path) : NO_LABEL;
  return { family, model: NO_LABEL, accountId };
}

/** Route templates are a fixed set: each one's family is worked out once. */
const FAMILY_OF_ROUTE = new Map<string, string>();

function familyOfRoute(path: string): string {
  let family = FAMILY_OF_ROUTE.get(path);
  if (family === undefined) {
    family = /^\/?([^/:]+)/.exec(path)?.[1] ?? NO_LABEL;
    FAMILY_OF_ROUTE.set(path, family);
  }
  return family;
}
