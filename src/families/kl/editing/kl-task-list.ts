import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { GatewayError } from '../../../platform/errors';
import { klEnvelope } from '../tasks/kl-task.presenter';

export const KL_LIST_MAX_IDS = 100;

export interface KlListQuery {
  page: number;
  pageSize: number;
  model?: string;
  ids?: string[];
}

function pageNumber(raw: unknown, param: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) {
    throw GatewayError.invalid(`${param} must be an integer from 1 to 500.`, param);
  }
  return Number(raw);
}

/** Query parameters of the family A lists (SPEC.md endpoints 8 and 11), as express parses them (`filter.x` or `filter[x]`). */
export function parseKlListQuery(query: Record<string, unknown>): KlListQuery {
  const filter = (query.filter && typeof query.filter === 'object' ? query.filter : {}) as Record<string, unknown>;
  const model = query['filter.model'] ?? filter.model;
  const rawIds = query['filter.task_ids'] ?? filter.task_ids;
  if (model !== undefined && typeof model !== 'string') throw GatewayError.invalid('filter.model must be given once.', 'filter.model');
  let ids: string[] | undefined;
  if (rawIds !== undefined) {
    const list = Array.isArray(rawIds) ? rawIds : [rawIds];
    if (!list.every((id): id is string => typeof id === 'string')) throw GatewayError.invalid('filter.task_ids must be task IDs.', 'filter.task_ids');
    if (list.length > KL_LIST_MAX_IDS) throw GatewayError.invalid(`filter.task_ids takes at most ${KL_LIST_MAX_IDS} IDs.`, 'filter.task_ids');
    ids = list.filter((id) => id !== '');
  }
  return {
    page: pageNumber(query.pageNum, 'pageNum', 1),
    pageSize: pageNumber(query.pageSize, 'pageSize', 20),
    model: model === '' ? undefined : (model as string | undefined),
    ids,
  };
}

/** One list item (SPEC.md "List item wrapper", CONTRACT §4): outer fields in seconds, the full query envelope inside. */
export function presentKlListItem(task: TaskEntity, action: string, present: (task: TaskEntity) => unknown) {
  const succeeded = task.outerStatus === 'SUCCESS';
  const failed = task.phase === 'failed' || task.phase === 'rejected';
  return {
    task_id: task.id,
    platform: 'kl',
    action,
    status: task.outerStatus,
    progress: `${succeeded ? 100 : Math.max(0, Math.min(100, Math.round(task.progress ?? 0)))}%`,
    fail_reason: failed ? (task.failureReason ?? '') : '',
    created_at: Math.floor(task.createdAt / 1000),
    data: present(task),
  };
}

export function presentKlList(page: { items: TaskEntity[]; total: number }, query: KlListQuery, action: string, present: (task: TaskEntity) => unknown, requestId?: string) {
  return klEnvelope({ items: page.items.map((task) => presentKlListItem(task, action, present)), total: page.total, page_num: query.page, page_size: query.pageSize }, requestId);
}
