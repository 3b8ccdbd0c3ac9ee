import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { KL_FAMILY_ID } from '../kl.ids';
import { klEnvelope } from './kl-task.presenter';

/**
 * A family A list (SPEC.md "List item wrapper", CONTRACT §7): the envelope around
 * `{items, total, page_num, page_size}`; each item the outer fields plus the task's full query
 * envelope in `data`. `present` is the action's single-task presenter.
 */
export function presentKlTaskList(
  page: { items: TaskEntity[]; total: number },
  request: { page: number; pageSize: number },
  present: (task: TaskEntity) => unknown,
  requestId?: string,
) {
  return klEnvelope(
    {
      items: page.items.map((task) => ({
        task_id: task.id,
        platform: KL_FAMILY_ID,
        action: task.action,
        status: task.outerStatus,
        progress: `${task.phase === 'succeeded' ? 100 : task.progress}%`,
        fail_reason: task.phase === 'failed' ? (task.failureReason ?? '') : '',
        created_at: Math.floor(task.createdAt / 1000),
        data: present(task),
      })),
      total: page.total,
      page_num: request.page,
      page_size: request.pageSize,
    },
    requestId,
  );
}
