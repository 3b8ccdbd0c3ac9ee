import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { endedWithoutResult } from '../../../core/tasks/task-status';
import { GatewayError } from '../../../platform/errors';
import { KL_FAMILY_ID } from '../kl.ids';
import { klEnvelope } from './kl-task.presenter';
import { KlEnvelope, KlListItemBase, KlPageFields } from './kl-task.responses';

/** A list answer whose items carry `T`, each item's full query answer. */
export type KlListResponse<T> = KlEnvelope & { data: KlPageFields & { items: (KlListItemBase & { data: T })[] } };

/** The kl lists: one query parser and one presenter for editing tasks and custom voices alike. */
export const KL_PAGE_MAX = 500;
export const KL_TASK_IDS_MAX = 100;

export interface KlListQuery {
  page: number;
  pageSize: number;
  model?: string;
  ids?: string[];
}

type RawQuery = Record<string, unknown>;

/** `pageNum`, `pageSize` (1..500), `filter.model`, `filter.task_ids` (repeatable, at most 100); anything else is 400. */
export function parseKlListQuery(raw: RawQuery): KlListQuery {
  const query = flattenFilter(raw);
  rejectUnknown(query, ['pageNum', 'pageSize', 'filter.model', 'filter.task_ids']);
  const model = single(query, 'filter.model');
  const ids = query['filter.task_ids'];
  let taskIds: string[] | undefined;
  if (ids !== undefined) {
    taskIds = (Array.isArray(ids) ? ids : [ids]).map((id) => {
      if (typeof id !== 'string' || id === '')
        throw GatewayError.invalid('filter.task_ids must be task IDs.', 'filter.task_ids');
      return id;
    });
    if (taskIds.length > KL_TASK_IDS_MAX)
      throw GatewayError.invalid(`filter.task_ids takes at most ${KL_TASK_IDS_MAX} IDs.`, 'filter.task_ids');
  }
  return {
    ...parsePage(query),
    ...(model !== undefined && model !== '' ? { model } : {}),
    ...(taskIds ? { ids: taskIds } : {}),
  };
}

/** `pageNum` (default 1) and `pageSize` (default 20), integers from 1 to 500; nothing else (the preset voices). */
export function parsePageQuery(raw: RawQuery): { page: number; pageSize: number } {
  rejectUnknown(raw, ['pageNum', 'pageSize']);
  return parsePage(raw);
}

function parsePage(query: RawQuery): { page: number; pageSize: number } {
  return { page: pageNumber(query, 'pageNum', 1), pageSize: pageNumber(query, 'pageSize', 20) };
}

function pageNumber(query: RawQuery, name: string, fallback: number): number {
  const value = single(query, name);
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > KL_PAGE_MAX) {
    throw GatewayError.invalid(`${name} must be an integer from 1 to ${KL_PAGE_MAX}.`, name);
  }
  return Number(value);
}

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw GatewayError.invalid(`${name} must be given once.`, name);
  return value;
}

function rejectUnknown(query: RawQuery, known: string[]): void {
  const unknown = Object.keys(query).find((key) => !known.includes(key));
  if (unknown) throw GatewayError.invalid(`Unknown query parameter '${unknown}'.`, unknown);
}

/** An extended query parser turns `filter.model` into `{filter: {model}}`; both forms read the same. */
function flattenFilter(raw: RawQuery): RawQuery {
  const { filter, ...rest } = raw;
  if (filter === undefined) return rest;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    throw GatewayError.invalid("Unknown query parameter 'filter'.", 'filter');
  const out: RawQuery = { ...rest };
  for (const [key, value] of Object.entries(filter as RawQuery)) out[`filter.${key}`] = value;
  return out;
}

/** One list item: outer fields in seconds, the full query envelope inside. */
export function presentKlListItem<T>(
  task: TaskEntity,
  action: string,
  present: (task: TaskEntity) => T,
): KlListItemBase & { data: T } {
  const succeeded = task.outerStatus === 'SUCCESS';
  const failed = endedWithoutResult(task.phase);
  return {
    task_id: task.id,
    platform: KL_FAMILY_ID,
    action,
    status: task.outerStatus,
    progress: `${succeeded ? 100 : Math.max(0, Math.min(100, Math.round(task.progress ?? 0)))}%`,
    fail_reason: failed ? (task.failureReason ?? '') : '',
    created_at: Math.floor(task.createdAt / 1000),
    data: present(task),
  };
}

export function presentKlList<T>(
  page: { items: TaskEntity[]; total: number },
  query: KlListQuery,
  action: string,
  present: (task: TaskEntity) => T,
  requestId?: string,
): KlListResponse<T> {
  return klEnvelope(
    {
      items: page.items.map((task) => presentKlListItem(task, action, present)),
      total: page.total,
      page_num: query.page,
      page_size: query.pageSize,
    },
    requestId,
  );
}
