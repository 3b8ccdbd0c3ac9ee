import type { TaskEntity } from '../tasks/entities/task.entity';

/**
 * The files a finished task shows its client, each named by a slot: `v<i>` a video, `v<i>w` its
 * watermarked copy, `v<i>c` its cover image, `a<i>` a voice's trial audio. Slots are the gateway's
 * own names, so a result URL carries no upstream ID.
 */
export interface ResultSlot {
  readonly slot: string;
  readonly url: string;
}

export const videoSlot = (index: number): string => `v${index}`;
export const watermarkSlot = (index: number): string => `v${index}w`;
export const coverSlot = (index: number): string => `v${index}c`;
export const trialAudioSlot = (index: number): string => `a${index}`;

/** Every file of a task's result that has an upstream URL. */
export function resultSlots(task: Pick<TaskEntity, 'result'>): ResultSlot[] {
  const slots: ResultSlot[] = [];
  (task.result?.videos ?? []).forEach((video, i) => {
    if (video.url) slots.push({ slot: videoSlot(i), url: video.url });
    if (video.watermarkUrl) slots.push({ slot: watermarkSlot(i), url: video.watermarkUrl });
    if (video.coverUrl) slots.push({ slot: coverSlot(i), url: video.coverUrl });
  });
  (task.result?.voices ?? []).forEach((voice, i) => {
    if (voice.trialUrl) slots.push({ slot: trialAudioSlot(i), url: voice.trialUrl });
  });
  return slots;
}

/** The upstream URL of one slot of a task, or undefined when the task has no such file. */
export function upstreamUrlOf(task: Pick<TaskEntity, 'result'>, slot: string): string | undefined {
  return resultSlots(task).find((s) => s.slot === slot)?.url;
}

/** The kept file's row ID: the task's own ID and the slot. */
export function resultFileId(taskId: string, slot: string): string {
  return `${taskId}.${slot}`;
}

/**
 * Where a kept file is stored: `<last two characters of the task ID>/<task ID>.<slot>`. The task
 * ID ends in random characters, so files spread evenly over at most 1,024 directories, which the
 * fs store makes once each rather than once per task (and which outlive the files they held).
 * Each file's key is recorded with it, so files kept under another layout stay readable.
 */
export function resultStorageKey(taskId: string, slot: string): string {
  return `${taskId.slice(-2)}/${resultFileId(taskId, slot)}`;
}

const SLOT = /^(?:v\d{1,3}[wc]?|a\d{1,3})$/;

export function isSlot(value: string): boolean {
  return SLOT.test(value);
}
