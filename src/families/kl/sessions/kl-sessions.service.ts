import { Injectable } from '@nestjs/common';
import { Principal } from '../../../core/accounts/principal';
import { LedgerService } from '../../../core/billing/ledger.service';
import { PricingService } from '../../../core/billing/pricing.service';
import { keyAllowsModel } from '../../../core/accounts/guards/model-access.guard';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TasksRepository } from '../../../core/tasks/tasks.repository';
import { GatewayError } from '../../../platform/errors';
import { addUpstreamTime, RequestContext } from '../../../platform/http/request-context';
import { newId } from '../../../platform/ids/ids';
import { Clock } from '../../../platform/time/clock';
import { validateDto } from '../../../platform/validation/validate-dto';
import { ChannelRegistry } from '../../../upstream/channels/channel-registry';
import { KlCallPath, KL_PATHS } from '../../../upstream/kl/kl.api';
import { KlClient } from '../../../upstream/kl/kl.client';
import { UpstreamChannel, UpstreamRejectedError } from '../../../upstream/upstream.types';
import { KL_FAMILY_ID, KL_MULTI_ELEMENTS } from '../kl.ids';
import { KlSessionOperation, KlSessionOpUsage } from '../kl.pricing';
import { parseResultId } from '../tasks/kl-result-ids';
import { klEnvelope } from '../tasks/kl-task.presenter';
import { KlInitSelectionDto, KlSelectionDto, KlSessionIdDto } from './kl-session.dto';
import { KlMarks, KlPoint, KlSessionEntity } from './kl-session.entity';
import {
  addMarks,
  checkFrameIndex,
  checkParsedVideo,
  deleteMarks,
  initSource,
  withPoints,
  withoutPoints,
} from './kl-session.rules';
import { KlSessionsRepository } from './kl-sessions.repository';

export const KL_SESSION_VALIDITY_MS = 24 * 60 * 60 * 1000;
/** SPEC.md endpoint 1: a historical work is usable for 30 days. */
export const KL_VIDEO_ID_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Compare-and-set retries before a heavily contended session gives up. */
const CAS_ATTEMPTS = 25;

type Json = Record<string, unknown>;

/**
 * Family A editing sessions (SPEC.md endpoints 1-5): each call goes to the upstream synchronously,
 * is priced per call (charged on success only), and keeps the gateway's own session record, whose
 * marks are changed only by compare-and-set so the limits hold under races and across instances.
 * Marks are reserved before the upstream call and given back when it fails.
 */
@Injectable()
export class KlSessionsService {
  constructor(
    private readonly client: KlClient,
    private readonly channels: ChannelRegistry,
    private readonly sessions: KlSessionsRepository,
    private readonly tasks: TasksRepository,
    private readonly pricing: PricingService,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
  ) {}

  async init(ctx: RequestContext, principal: Principal, model: ModelDescriptor, body: unknown) {
    const dto = validateDto(KlInitSelectionDto, body);
    const source = initSource(dto);
    const param = source.kind;
    let channel: UpstreamChannel;
    let payload: Json;
    if (source.kind === 'video_id') {
      const video = await this.resolveVideoId(principal, source.videoId);
      channel = this.channelById(video.channelId);
      payload = { video_id: video.upstreamVideoId };
    } else {
      channel = this.anyChannel();
      payload = { video_url: source.videoUrl };
    }
    const now = this.clock.nowMs();
    const session = await this.priced(principal, model, 'init', async () => {
      const data = await this.upstream(ctx, channel, KL_PATHS.initSelection, payload);
      const status = Number(data.status ?? 0);
      if (status !== 0 || !data.session_id) {
        throw GatewayError.invalid(`${param}: the upstream could not recognise the video (status ${status}).`, param);
      }
      const parsed = {
        fps: Number(data.fps),
        originalDuration: Number(data.original_duration),
        width: Number(data.width),
        height: Number(data.height),
        totalFrame: Number(data.total_frame),
      };
      checkParsedVideo(parsed, param);
      const record: KlSessionEntity = {
        id: newId('sess'),
        accountId: principal.account.id,
        channelId: channel.id,
        upstreamSessionId: String(data.session_id),
        model: model.name,
        source: source.kind === 'video_id' ? source.videoId : source.videoUrl,
        ...parsed,
        normalizedVideo: typeof data.normalized_video === 'string' ? data.normalized_video : '',
        marks: {},
        version: 0,
        createdAt: now,
        updatedAt: now,
        expiresAt: now + KL_SESSION_VALIDITY_MS,
      };
      await this.sessions.insert(record);
      return { record, deduction: data.final_unit_deduction };
    });
    const s = session.record;
    return klEnvelope(
      {
        status: 0,
        session_id: s.id,
        final_unit_deduction: deduction(session.deduction),
        fps: s.fps,
        original_duration: s.originalDuration,
        width: s.width,
        height: s.height,
        total_frame: s.totalFrame,
        normalized_video: s.normalizedVideo,
      },
      ctx.requestId,
    );
  }

  async add(ctx: RequestContext, principal: Principal, model: ModelDescriptor, body: unknown) {
    const dto = validateDto(KlSelectionDto, body);
    const session = await this.findLive(principal, dto.session_id);
    checkFrameIndex(dto.frame_index, session.totalFrame);
    const channel = this.channelById(session.channelId);
    const points = dto.points.map(({ x, y }) => ({ x, y }));
    let added: KlPoint[] = [];
    await this.mutate(session, (marks) => {
      const next = addMarks(marks, dto.frame_index, points);
      added = next.added;
      return next.marks;
    });
    try {
      const data = await this.priced(principal, model, 'add', () =>
        this.upstream(ctx, channel, KL_PATHS.addSelection, {
          session_id: session.upstreamSessionId,
          frame_index: dto.frame_index,
          points,
        }),
      );
      return this.answer(ctx, session, data);
    } catch (error) {
      await this.mutate(session, (marks) => withoutPoints(marks, dto.frame_index, added)).catch(() => undefined);
      throw error;
    }
  }

  async delete(ctx: RequestContext, principal: Principal, model: ModelDescriptor, body: unknown) {
    const dto = validateDto(KlSelectionDto, body);
    const session = await this.findLive(principal, dto.session_id);
    checkFrameIndex(dto.frame_index, session.totalFrame);
    const channel = this.channelById(session.channelId);
    const points = dto.points.map(({ x, y }) => ({ x, y }));
    await this.mutate(session, (marks) => deleteMarks(marks, dto.frame_index, points));
    try {
      const data = await this.priced(principal, model, 'delete', () =>
        this.upstream(ctx, channel, KL_PATHS.deleteSelection, {
          session_id: session.upstreamSessionId,
          frame_index: dto.frame_index,
          points,
        }),
      );
      return this.answer(ctx, session, data);
    } catch (error) {
      await this.mutate(session, (marks) => withPoints(marks, dto.frame_index, points)).catch(() => undefined);
      throw error;
    }
  }

  async clear(ctx: RequestContext, principal: Principal, model: ModelDescriptor, body: unknown) {
    const dto = validateDto(KlSessionIdDto, body);
    const session = await this.findLive(principal, dto.session_id);
    const channel = this.channelById(session.channelId);
    const data = await this.priced(principal, model, 'clear', async () => {
      const answer = await this.upstream(ctx, channel, KL_PATHS.clearSelection, {
        session_id: session.upstreamSessionId,
      });
      await this.mutate(session, () => ({}));
      return answer;
    });
    return this.answer(ctx, session, data);
  }

  async preview(ctx: RequestContext, principal: Principal, model: ModelDescriptor, body: unknown) {
    const dto = validateDto(KlSessionIdDto, body);
    const session = await this.findLive(principal, dto.session_id);
    if (Object.keys(session.marks ?? {}).length === 0) {
      throw GatewayError.invalid('The session has no selection to preview; add one first.', 'session_id');
    }
    const channel = this.channelById(session.channelId);
    const data = await this.priced(principal, model, 'preview', () =>
      this.upstream(ctx, channel, KL_PATHS.previewSelection, { session_id: session.upstreamSessionId }),
    );
    return this.answer(ctx, session, data);
  }

  /** The caller's live session: another account's or an unknown one is 404, an expired one 400. */
  async findLive(principal: Principal, sessionId: string): Promise<KlSessionEntity> {
    const session = await this.sessions.findForAccount(sessionId, principal.account.id);
    // A key restricted to some models sees no session of another model (as for tasks).
    if (!session || !keyAllowsModel(principal.apiKey.models, session.model)) throw GatewayError.notFound('Session');
    if (session.expiresAt <= this.clock.nowMs()) {
      throw GatewayError.invalid(
        'The session has expired (sessions are valid 24 hours); initialise the video again.',
        'session_id',
      );
    }
    return session;
  }

  /**
   * A public video ID (`video_<task>_<n>`) -> the upstream's video ID, only for a video the gateway
   * produced for this account with a succeeded editing task; anything else is 404.
   */
  private async resolveVideoId(
    principal: Principal,
    videoId: string,
  ): Promise<{ upstreamVideoId: string; channelId: string }> {
    const ref = parseResultId('video', videoId);
    const task = ref ? await this.tasks.findForAccount(ref.taskId, principal.account.id) : null;
    const video =
      ref && task?.family === KL_FAMILY_ID && task.action === KL_MULTI_ELEMENTS && task.phase === 'succeeded'
        ? task.result?.videos?.[ref.index]
        : undefined;
    if (!task || !video?.id || !keyAllowsModel(principal.apiKey.models, task.model))
      throw GatewayError.notFound('Video');
    if (this.clock.nowMs() - (task.finishedAt ?? task.updatedAt) > KL_VIDEO_ID_MAX_AGE_MS) {
      throw GatewayError.invalid('video_id: only videos generated within the last 30 days can be edited.', 'video_id');
    }
    return { upstreamVideoId: video.id, channelId: task.channelId };
  }

  /** Native `data` with the public session ID in place of the upstream's. */
  private answer(ctx: RequestContext, session: KlSessionEntity, data: Json) {
    return klEnvelope(
      { ...data, session_id: session.id, final_unit_deduction: deduction(data.final_unit_deduction) },
      ctx.requestId,
    );
  }

  /** Conditional write of the marks, re-reading and re-applying `change` when another writer got there first. */
  private async mutate(session: KlSessionEntity, change: (marks: KlMarks) => KlMarks): Promise<void> {
    let current = session;
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const next = change(current.marks ?? {});
      if (await this.sessions.replaceMarks(current.id, current.version, next, this.clock.nowMs())) return;
      const fresh = await this.sessions.findForAccount(current.id, current.accountId);
      if (!fresh) throw GatewayError.notFound('Session');
      current = fresh;
    }
    throw GatewayError.unavailable('The session is being changed by other requests; retry.');
  }

  private priced<T>(
    principal: Principal,
    model: ModelDescriptor,
    operation: KlSessionOperation,
    work: () => Promise<T>,
  ): Promise<T> {
    const usage: KlSessionOpUsage = { kind: 'kl-session-op', operation };
    const estimate = this.pricing.estimate(model.name, usage);
    return this.ledger.chargeCall(
      principal.account.id,
      newId('hold'),
      {
        amount: estimate.amount,
        priceVersion: estimate.priceVersion,
        model: model.name,
        action: `session_${operation}`,
        usage: { ...usage },
      },
      work,
    );
  }

  private async upstream(
    ctx: RequestContext,
    channel: UpstreamChannel,
    path: KlCallPath,
    payload: Json,
  ): Promise<Json> {
    const timing = { upstreamMs: 0 };
    try {
      return await this.client.call<Json>(channel, 'POST', path, payload, { timing });
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if (error instanceof UpstreamRejectedError) {
        throw GatewayError.invalid(`The upstream rejected the request: ${error.message}`, null, {
          native: { code: error.nativeCode, message: error.message },
        });
      }
      throw GatewayError.unavailable();
    } finally {
      addUpstreamTime(ctx, timing.upstreamMs);
    }
  }

  private anyChannel(): UpstreamChannel {
    try {
      return this.channels.forFamily(KL_FAMILY_ID);
    } catch {
      throw GatewayError.unavailable('No upstream channel is configured for this model family.');
    }
  }

  private channelById(id: string): UpstreamChannel {
    const channel = this.channels.byId(id);
    if (!channel) throw GatewayError.unavailable('The upstream channel of this session is no longer configured.');
    return channel;
  }
}

function deduction(value: unknown): string {
  return value === undefined || value === null ? '0' : String(value);
}
