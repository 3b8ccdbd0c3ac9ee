import { KlSessionEntity } from '../../src/families/kl/sessions/kl-session.entity';
import { KlVoiceEntity } from '../../src/families/kl/voices/kl-voice.entity';
import { FIXED_NOW, defineFactory } from './factory';

const HOUR_MS = 3600 * 1000;

export const klSessionFactory = defineFactory<KlSessionEntity>(KlSessionEntity, (n) => ({
  id: `sess_${n}`,
  accountId: 'acct_1',
  channelId: 'kl-default',
  upstreamSessionId: `up-sess-${n}`,
  model: 'kling-v1-6',
  source: 'https://media.test/in.mp4',
  fps: 30,
  originalDuration: 5,
  width: 1280,
  height: 720,
  totalFrame: 150,
  normalizedVideo: 'https://upstream.test/normalized.mp4',
  marks: {},
  version: 0,
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
  expiresAt: FIXED_NOW + 24 * HOUR_MS,
  leaseToken: null,
  leaseUntil: null,
}));

export const klVoiceFactory = defineFactory<KlVoiceEntity>(KlVoiceEntity, (n) => ({
  id: `voice_task_${n}_0`,
  accountId: 'acct_1',
  taskId: `task_${n}`,
  voiceIndex: 0,
  upstreamVoiceId: `up-voice-${n}`,
  deleteTaskId: null,
  deleteState: null,
  deletedAt: null,
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
}));
