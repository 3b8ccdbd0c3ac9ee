import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { previewUrl } from '../../../core/result-keeping/result-url';
import { Principal } from '../../../core/accounts/principal';
import { LedgerService } from '../../../core/billing/ledger.service';
import { PricingService } from '../../../core/billing/pricing.service';
import { keyAllowsModel } from '../../../core/accounts/guards/model-access.guard';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TasksRepository } from '../../../core/tasks/tasks.repository';
import { AppConfig } from '../../../platform/config/app-config';
import { GatewayError } from '../../../platform/errors';
import { upstreamRejection } from '../../../core/tasks/upstream-rejection';
import { addUpstreamTime, RequestContext } from '../../../platform/http/request-context';
import { newId, randomSecret } from '../../../platform/ids/ids';
import { Clock } from '../../../platform/time/clock';
import { ChannelRegistry } from '../../../upstream/channel-routing/channel-registry';
import { KlCallPath, KL_PATHS } from '../../../upstream/kl/kl.api';
import { KlClient } from '../../../upstream/kl/kl.client';
import { isRecord } from '../../../upstream/http/lenient';
import { upstreamFailureFields } from '../../../upstream/http/upstream-failure';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions } from '../../../upstream/http/upstream-http-options';
import { UpstreamChannel, UpstreamRejectedError, UpstreamUnavailableError } from '../../../upstream/upstream.types';
import { MediaUrlPolicy, PUBLIC_MEDIA_URLS, mediaUrlPolicy } from '../../common/media-url-policy';
import { klNotFound, klSessionBusy } from '../kl.errors';
import { KL_FAMILY_ID, KL_MULTI_ELEMENTS } from '../kl.ids';
import { KlSessionOperation, KlSessionOpUsage } from '../kl.pricing';
import { parseResultId } from '../tasks/kl-result-ids';
import { klEnvelope } from '../tasks/kl-task.presenter';
import { KlInitSelectionDto, KlSelectionDto, KlSessionIdDto } from './kl-session.dto';
import { KlMarks, KlPoint, KlSessionEntity } from './kl-session.entity';
import { addMarks, checkFrameIndex, checkParsedVideo, deleteMarks, initSource } from './kl-session.rules';
import { klDeduction, klPreviewData, klSelectionData, klSessionData, klSessionStatus } from './kl-session.presenter';
import { KlSessionsRepository } from './kl-sessions.repository';
import {
  KlPreviewResponse,
  KlSelectionResponse,
  KlSessionClearedResponse,
  KlSessionInitResponse,
} from './kl-session.responses';

export const KL_SESSION_VALIDITY_MS = 24 * 60 * 60 * 1000;
/** A generated video can be edited for 30 days. */
export const KL_VIDEO_ID_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** How long a call waits for its turn on a busy session before it is refused with 409. */
export const KL_SESSION_WAIT_MS = 5_000;
/** A session's lease outlives its holder's upstream call (bounded by the POST timeout) by this margin. */
const LEASE_MARGIN_MS = 15_000;
/** First and longest pause between two tries for a busy session's lease. */
const LEASE_POLL_MS = { first: 10, max: 100 } as const;

type Json = Record<string, unknown>;

/** What one session operation does around its upstream call (see `onSession`). */
interface SessionCall {
  operation: KlSessionOperation;
  path: KlCallPath;
  /** Sent after the upstream's session ID. */
  payload?: Json;
  /**
   * Rules on the session as its lease holder sees it, before any upstream call or charge (a 400
   * here costs nothing). Returns the marks the session holds once the upstream has done the call,
   * or undefined when the call changes none.
   */
  plan(session: KlSessionEntity): KlMarks | undefined;
  /** add and delete: the field a non-zero `data.status` (the upstream did not do it) is blamed on. */
  statusParam?: string;
  /** The answer's `data`: the documented fields only. */
  present(session: KlSessionEntity, data: Json): Json;
}

/**
 * kl editing sessions: each call goes to the upstream synchronously and is priced per call
 * (charged on success only). The gateway keeps its own session record, whose marks are what the
 * upstream holds: one session's upstream calls are made one at a time, under a lease on its row
 * that every instance respects, and the marks are written after the upstream did the call.
 */
@Injectable()
export class KlSessionsService {
  private readonly logger = new Logger('KlSessions');
  private readonly leaseMs: number;
  private readonly mediaUrls: MediaUrlPolicy;

  constructor(
    private readonly client: KlClient,
    private readonly channels: ChannelRegistry,
    private readonly sessions: KlSessionsRepository,
    private readonly tasks: TasksRepository,
    private readonly pricing: PricingService,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
    @Inject(UPSTREAM_HTTP_OPTIONS) http: Pick<UpstreamHttpOptions, 'createTimeoutMs'>,
    // Absent in unit specs: media URLs must then name public hosts.
    @Optional() @Inject(AppConfig) config?: Pick<AppConfig, 'MEDIA_FETCH_ALLOW_PRIVATE'>,
  ) {
    this.leaseMs = http.createTimeoutMs + LEASE_MARGIN_MS;
    this.mediaUrls = config ? mediaUrlPolicy(config) : PUBLIC_MEDIA_URLS;
  }

  async init(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    dto: KlInitSelectionDto,
  ): Promise<KlSessionInitResponse> {
    const source = initSource(dto, this.mediaUrls);
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
      const status = klSessionStatus(data);
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
        final_unit_deduction: klDeduction(session.deduction),
        fps: s.fps,
        original_duration: s.originalDuration,
        width: s.width,
        height: s.height,
        total_frame: s.totalFrame,
        normalized_video: previewUrl(s.normalizedVideo),
      },
      ctx.requestId,
    );
  }

  async add(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    dto: KlSelectionDto,
  ): Promise<KlSelectionResponse> {
    return this.onFrame(
      ctx,
      principal,
      model,
      dto,
      'add',
      (marks, frame, points) => addMarks(marks, frame, points).marks,
    );
  }

  async delete(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    dto: KlSelectionDto,
  ): Promise<KlSelectionResponse> {
    return this.onFrame(ctx, principal, model, dto, 'delete', deleteMarks);
  }

  async clear(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    dto: KlSessionIdDto,
  ): Promise<KlSessionClearedResponse> {
    return this.onSession(ctx, principal, model, dto.session_id, {
      operation: 'clear',
      path: KL_PATHS.clearSelection,
      plan: () => ({}),
      present: klSessionData,
    });
  }

  async preview(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    dto: KlSessionIdDto,
  ): Promise<KlPreviewResponse> {
    return this.onSession(ctx, principal, model, dto.session_id, {
      operation: 'preview',
      path: KL_PATHS.previewSelection,
      plan: (session) => {
        if (Object.keys(session.marks ?? {}).length === 0) {
          throw GatewayError.invalid('The session has no selection to preview; add one first.', 'session_id');
        }
        return undefined;
      },
      present: klPreviewData,
    });
  }

  /** add and delete: points on one frame, checked against the frame range and the marks by `change`. */
  private onFrame(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    dto: KlSelectionDto,
    operation: 'add' | 'delete',
    change: (marks: KlMarks, frameIndex: number, points: KlPoint[]) => KlMarks,
  ): Promise<KlSelectionResponse> {
    const points = dto.points.map(({ x, y }) => ({ x, y }));
    return this.onSession(ctx, principal, model, dto.session_id, {
      operation,
      path: operation === 'add' ? KL_PATHS.addSelection : KL_PATHS.deleteSelection,
      payload: { frame_index: dto.frame_index, points },
      plan: (session) => {
        checkFrameIndex(dto.frame_index, session.totalFrame);
        return change(session.marks ?? {}, dto.frame_index, points);
      },
      statusParam: 'points',
      present: klSelectionData,
    });
  }

  /**
   * One priced upstream call on the caller's live session, made while holding the session's lease:
   * the rules run on the marks as they are then, the upstream is called, and (inside the charged
   * work, so a failure costs nothing) the marks it now holds are recorded.
   */
  private async onSession<T extends KlSessionClearedResponse>(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    sessionId: string,
    call: SessionCall,
  ): Promise<T> {
    const found = await this.findLive(principal, sessionId);
    const channel = this.channelById(found.channelId);
    return this.withLease(principal, found, async (session) => {
      const next = call.plan(session);
      const data = await this.priced(principal, model, call.operation, async () => {
        const answer = await this.upstream(
          ctx,
          channel,
          call.path,
          { session_id: session.upstreamSessionId, ...call.payload },
          'session_id',
        );
        const status = klSessionStatus(answer);
        if (call.statusParam && status !== 0) {
          throw GatewayError.invalid(
            `The upstream could not ${call.operation} this selection (status ${status}); nothing was changed or charged.`,
            call.statusParam,
          );
        }
        if (next) await this.sessions.recordMarks(session.id, next, this.clock.nowMs());
        return answer;
      });
      return klEnvelope(call.present(session, data), ctx.requestId) as unknown as T;
    });
  }

  /**
   * Runs `work` on the freshly read session while holding its lease; waits its turn while another
   * request (on any instance) holds it, up to `KL_SESSION_WAIT_MS`, then 409. A holder that died
   * leaves a lease that runs out after its upstream call could have.
   */
  private async withLease<T>(
    principal: Principal,
    session: KlSessionEntity,
    work: (session: KlSessionEntity) => Promise<T>,
  ): Promise<T> {
    const token = randomSecret(12);
    const giveUpAt = performance.now() + KL_SESSION_WAIT_MS;
    let pause: number = LEASE_POLL_MS.first;
    for (;;) {
      const now = this.clock.nowMs();
      if (await this.sessions.acquireLease(session.id, token, now, now + this.leaseMs)) break;
      if (performance.now() + pause > giveUpAt) {
        throw klSessionBusy();
      }
      await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random() / 2)));
      pause = Math.min(pause * 2, LEASE_POLL_MS.max);
    }
    try {
      // The marks as the previous holder left them.
      const fresh = await this.findLive(principal, session.id);
      return await work(fresh);
    } finally {
      await this.sessions.releaseLease(session.id, token);
    }
  }

  /**
   * The caller's live session: another account's or an unknown one is 404, an expired one 400,
   * each naming `session_id` and saying which it is.
   */
  async findLive(principal: Principal, sessionId: string): Promise<KlSessionEntity> {
    const session = await this.sessions.findForAccount(sessionId, principal.account.id);
    // A key restricted to some models sees no session of another model (as for tasks).
    if (!session || !keyAllowsModel(principal.apiKey.models, session.model)) throw klNotFound('session_id');
    if (session.expiresAt <= this.clock.nowMs()) {
      throw GatewayError.invalid(
        'Expired session_id: sessions are valid 24 hours after init-selection; initialise the video again.',
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
    if (!task || !video?.id || !keyAllowsModel(principal.apiKey.models, task.model)) throw klNotFound('video_id');
    if (this.clock.nowMs() - (task.finishedAt ?? task.updatedAt) > KL_VIDEO_ID_MAX_AGE_MS) {
      throw GatewayError.invalid('video_id: only videos generated within the last 30 days can be edited.', 'video_id');
    }
    return { upstreamVideoId: video.id, channelId: task.channelId };
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

  /** `sessionParam`: on a call about an existing session, the field an upstream 404 (it lost the session) names. */
  private async upstream(
    ctx: RequestContext,
    channel: UpstreamChannel,
    path: KlCallPath,
    payload: Json,
    sessionParam?: string,
  ): Promise<Json> {
    const timing = { upstreamMs: 0 };
    try {
      const data = await this.client.call<unknown>(channel, 'POST', path, payload, { timing });
      if (!isRecord(data))
        throw new UpstreamUnavailableError(
          `Upstream channel ${channel.id} answered POST ${path} without a data object.`,
        );
      return data;
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      // One line per failed call, as for task creates: what the upstream said, on which channel, for which request.
      this.logger.warn(
        { ...upstreamFailureFields(error, channel), operation: path, req: { id: ctx.requestId } },
        'upstream session call failed',
      );
      if (error instanceof UpstreamRejectedError && sessionParam && error.httpStatus === 404) {
        // Its message would name the upstream's own session ID, which stays internal.
        throw GatewayError.invalid(
          'Expired session_id: the upstream no longer holds this session; initialise the video again.',
          sessionParam,
        );
      }
      if (error instanceof UpstreamRejectedError) {
        throw upstreamRejection(error);
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
