/**
 * Public IDs of what kl tasks produce. The upstream account is shared by every customer, so
 * its video and voice IDs never leave the gateway: each result is named after the task that made
 * it (`video_<task>_<n>`, `voice_<task>_<n>`), which makes the mapping back a lookup of the
 * task itself, scoped to its account like every task read.
 */
const TASK_PREFIX = 'task_';

export function publicVideoId(taskId: string, index: number): string {
  return `video_${taskId.slice(TASK_PREFIX.length)}_${index}`;
}

export function publicVoiceId(taskId: string, index: number): string {
  return `voice_${taskId.slice(TASK_PREFIX.length)}_${index}`;
}

/** The task and result index a public ID names, or null when it is not one of ours. */
export function parseResultId(kind: 'video' | 'voice', id: string): { taskId: string; index: number } | null {
  const match = new RegExp(`^${kind}_([0-9A-Za-z]{1,60})_(\\d{1,3})$`).exec(id);
  return match ? { taskId: `${TASK_PREFIX}${match[1]}`, index: Number(match[2]) } : null;
}
