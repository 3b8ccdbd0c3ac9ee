import { TaskPhase, TaskTimeline, phaseAt, phaseStartedAt } from '../task-clock';

/** Native `task_status` word per phase. */
export const KL_STATUS: Record<TaskPhase, string> = {
  queued: 'submitted',
  running: 'processing',
  succeeded: 'succeed',
  failed: 'failed',
  // Never reached: the vendor has no cancel.
  cancelled: 'failed',
};

interface KlTaskBase {
  readonly taskId: string;
  readonly externalTaskId?: string;
  readonly timeline: TaskTimeline;
}

export interface KlEditingTask extends KlTaskBase {
  readonly kind: 'editing';
  readonly sessionId: string;
  readonly videoId: string;
  /** Seconds as a string, as kl sends and answers it. */
  readonly duration: string;
  readonly mode: string;
  readonly watermarkEnabled: boolean;
}

export interface KlVoiceTask extends KlTaskBase {
  readonly kind: 'voice';
  readonly voiceId: string;
  readonly voiceName: string;
}

export type KlTask = KlEditingTask | KlVoiceTask;

/** Editing and voice tasks, findable by `task_id` or by the caller's `external_task_id`. */
export class KlTaskStore {
  private readonly byId = new Map<string, KlTask>();

  add(task: KlTask): void {
    this.byId.set(task.taskId, task);
  }

  get(taskId: string): KlTask | undefined {
    return this.byId.get(taskId);
  }

  /** Task ID first; otherwise the most recent task of that kind with that external ID. */
  find<K extends KlTask['kind']>(kind: K, idOrExternalId: string): Extract<KlTask, { kind: K }> | undefined {
    const direct = this.byId.get(idOrExternalId);
    if (direct?.kind === kind) return direct as Extract<KlTask, { kind: K }>;
    let latest: KlTask | undefined;
    for (const task of this.byId.values()) {
      if (task.kind === kind && task.externalTaskId === idOrExternalId) latest = task;
    }
    return latest as Extract<KlTask, { kind: K }> | undefined;
  }

  voiceTaskByVoiceId(voiceId: string): KlVoiceTask | undefined {
    for (const task of this.byId.values()) {
      if (task.kind === 'voice' && task.voiceId === voiceId) return task;
    }
    return undefined;
  }
}

/** The fields every kl task answer shares. */
export function klTaskHeader(task: KlTask, failureMessage: string, now: number): Record<string, unknown> {
  const phase = phaseAt(task.timeline, now);
  return {
    task_id: task.taskId,
    task_status: KL_STATUS[phase],
    task_status_msg: phase === 'failed' ? failureMessage : '',
    task_info: klTaskInfo(task),
    created_at: task.timeline.createdAt,
    updated_at: phaseStartedAt(task.timeline, now),
  };
}

export function klTaskInfo(task: KlTask): Record<string, string> {
  return task.externalTaskId === undefined ? {} : { external_task_id: task.externalTaskId };
}

/** The `data` of a creation answer: both task kinds answer alike. */
export function klCreatedData(task: KlTask): Record<string, unknown> {
  return {
    task_id: task.taskId,
    task_status: 'submitted',
    task_info: klTaskInfo(task),
    created_at: task.timeline.createdAt,
    updated_at: task.timeline.createdAt,
  };
}
