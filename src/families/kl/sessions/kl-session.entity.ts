import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';

export interface KlPoint {
  x: number;
  y: number;
}

/** Marked frames: frame index (as a string key) -> the points added on it, in order. */
export type KlMarks = Record<string, KlPoint[]>;

/**
 * The gateway's own record of a kl editing session. The upstream's session ID stays
 * internal; callers see `id`. `marks` are what the upstream holds: they change only under the
 * session's lease (`leaseToken` until `leaseUntil`), which one request at a time holds for its
 * upstream call, on every instance. `version` counts the changes of `marks`.
 */
@Entity('kl_sessions')
@Index('idx_kl_sessions_account', ['accountId'])
export class KlSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 100, name: 'channel_id' }) channelId: string;
  @Column({ type: 'varchar', length: 200, name: 'upstream_session_id' }) upstreamSessionId: string;
  @Column({ type: 'varchar', length: 100 }) model: string;
  /** `video_url` as given, or the public `video_id`. */
  @Column({ type: 'text' }) source: string;
  @Column({ type: 'real' }) fps: number;
  @Column({ type: 'integer', name: 'original_duration' }) originalDuration: number;
  @Column({ type: 'integer' }) width: number;
  @Column({ type: 'integer' }) height: number;
  @Column({ type: 'integer', name: 'total_frame' }) totalFrame: number;
  @Column({ type: 'text', name: 'normalized_video' }) normalizedVideo: string;
  @Column(JsonColumnOptions()) marks: KlMarks;
  @Column({ type: 'integer', default: 0 }) version: number;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
  @Column(BigIntColumnOptions({ name: 'expires_at' })) expiresAt: number;
  @Column({ type: 'varchar', length: 64, name: 'lease_token', nullable: true }) leaseToken?: string | null;
  @Column(BigIntColumnOptions({ name: 'lease_until', nullable: true })) leaseUntil?: number | null;
}
