import { Injectable } from '@nestjs/common';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { TaskEngine } from '../../../core/tasks/task-engine.service';
import { TaskQueries } from '../../../core/tasks/task-queries.service';
import { GatewayError } from '../../../platform/errors';
import { upstreamRejection } from '../../../core/tasks/upstream-rejection';
import { addUpstreamTime, RequestContext } from '../../../platform/http/request-context';
import { newId } from '../../../platform/ids/ids';
import { Clock } from '../../../platform/time/clock';
import { ChannelRegistry } from '../../../upstream/channel-routing/channel-registry';
import { KL_PATHS } from '../../../upstream/kl/kl.api';
import { KlClient } from '../../../upstream/kl/kl.client';
import { UpstreamRejectedError, UpstreamTiming } from '../../../upstream/upstream.types';
import { klNotFound } from '../kl.errors';
import { KL_CUSTOM_VOICES, KL_FAMILY_ID, KL_MULTI_ELEMENTS } from '../kl.ids';
import { KlVoiceUsage } from '../kl.pricing';
import { parseResultId } from '../tasks/kl-result-ids';
import { KlListQuery, presentKlList } from '../tasks/kl-task-list';
import { klCreatedData, klEnvelope } from '../tasks/kl-task.presenter';
import { KlPresetItem, KlPresetsService } from './kl-presets.service';
import { presentKlVoiceTask } from './kl-voice-task.presenter';
import { KlDeleteVoiceDto } from './kl-voice.dto';
import {
  KlPresetsResponse,
  KlVoiceCreatedResponse,
  KlVoiceDeletedResponse,
  KlVoiceListResponse,
  KlVoiceTaskResponse,
} from './kl-voice.responses';
import { KlVoiceCreateRequest, KlVoiceSource, videoNotFound } from './kl-voice.rules';
import { KlVoicesRepository } from './kl-voices.repository';

/** kl voices: custom voice tasks on the engine, their deletion, the official presets. */
@Injectable()
export class KlVoicesService {
  constructor(
    private readonly engine: TaskEngine,
    private readonly queries: TaskQueries,
    private readonly voices: KlVoicesRepository,
    private readonly presets: KlPresetsService,
    private readonly client: KlClient,
    private readonly channels: ChannelRegistry,
    private readonly clock: Clock,
  ) {}

  async create(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    { dto, source }: KlVoiceCreateRequest,
  ): Promise<KlVoiceCreatedResponse> {
    const { body: sourceBody, channelId } = await this.upstreamSource(principal, source);
    const upstreamBody: Record<string, unknown> = { voice_name: dto.voice_name, ...sourceBody };
    const billing: KlVoiceUsage = { kind: 'kl-voice' };
    const task = await this.engine.create(
      principal,
      {
        family: KL_FAMILY_ID,
        action: KL_CUSTOM_VOICES,
        model,
        upstreamBody,
        // The caller's own video ID is kept, not the upstream's.
        snapshot: {
          voice_name: dto.voice_name,
          ...(source.kind === 'url' ? { voice_url: source.url } : { video_id: dto.video_id }),
        },
        billing,
        externalTaskId: dto.external_task_id ?? null,
        callbackUrl: dto.callback_url ?? null,
        // A video_id is the upstream's on the channel that made the video: the task must go there.
        channelId,
      },
      ctx,
    );
    return klEnvelope(klCreatedData(task), ctx.requestId);
  }

  async get(ctx: RequestContext, principal: Principal, taskId: string): Promise<KlVoiceTaskResponse> {
    const task = await this.queries.findVisible(principal, KL_FAMILY_ID, taskId, KL_CUSTOM_VOICES);
    const deleted = await this.voices.deletedIds(principal.account.id, [task.id]);
    return presentKlVoiceTask(task, ctx.requestId, deleted);
  }

  async list(ctx: RequestContext, principal: Principal, request: KlListQuery): Promise<KlVoiceListResponse> {
    const page = await this.queries.list(principal, { family: KL_FAMILY_ID, action: KL_CUSTOM_VOICES, ...request });
    const deleted = await this.voices.deletedIds(
      principal.account.id,
      page.items.map((t) => t.id),
    );
    return presentKlList(
      page,
      request,
      KL_CUSTOM_VOICES,
      (task) => presentKlVoiceTask(task, undefined, deleted),
      ctx.requestId,
    );
  }

  async presetVoices(
    ctx: RequestContext,
    { page, pageSize }: { page: number; pageSize: number },
  ): Promise<KlPresetsResponse> {
    const items: KlPresetItem[] = await this.presets.presentedPage(page, pageSize, ctx);
    return klEnvelope(items, ctx.requestId);
  }

  /**
   * Deletes one of the caller's custom voices: claimed in the database first (exactly one caller
   * wins), then deleted upstream, then marked deleted. A failed upstream call gives the claim back.
   */
  async delete(
    ctx: RequestContext,
    principal: Principal,
    { voice_id: voiceId }: KlDeleteVoiceDto,
  ): Promise<KlVoiceDeletedResponse> {
    const accountId = principal.account.id;
    const ref = parseResultId('voice', voiceId);
    if (!ref) {
      if (await this.presets.isOfficial(voiceId, ctx))
        throw GatewayError.invalid('Only custom voices can be deleted; this is an official voice.', 'voice_id');
      throw voiceNotFound();
    }
    const task = await this.queries
      .findVisible(principal, KL_FAMILY_ID, ref.taskId, KL_CUSTOM_VOICES)
      .catch(() => null);
    const upstreamVoice = task?.phase === 'succeeded' ? task.result?.voices?.[ref.index] : undefined;
    if (!task || !upstreamVoice?.voiceId) throw voiceNotFound();

    const now = this.clock.nowMs();
    await this.voices.ensure({
      id: voiceId,
      accountId,
      taskId: task.id,
      voiceIndex: ref.index,
      upstreamVoiceId: upstreamVoice.voiceId,
      createdAt: now,
      updatedAt: now,
    });
    const deleteTaskId = newId('task');
    if (!(await this.voices.claimDeletion(voiceId, accountId, deleteTaskId, now))) {
      const row = await this.voices.findOwned(voiceId, accountId);
      throw GatewayError.invalid(
        row?.deleteState === 'deleted' ? 'This voice is already deleted.' : 'This voice is already being deleted.',
        'voice_id',
      );
    }
    try {
      await this.deleteUpstream(ctx, task, upstreamVoice.voiceId);
    } catch (error) {
      await this.voices.releaseDeletion(voiceId, deleteTaskId, this.clock.nowMs());
      throw error;
    }
    await this.voices.confirmDeletion(voiceId, deleteTaskId, this.clock.nowMs());
    return klEnvelope({ task_id: deleteTaskId, task_status: 'succeed' }, ctx.requestId);
  }

  private async deleteUpstream(ctx: RequestContext, task: TaskEntity, upstreamVoiceId: string): Promise<void> {
    const channel = this.channels.byId(task.channelId) ?? this.channels.forFamily(KL_FAMILY_ID);
    const timing: UpstreamTiming = { upstreamMs: 0 };
    try {
      await this.client.call(channel, 'POST', KL_PATHS.deleteVoices, { voice_id: upstreamVoiceId }, { timing });
    } catch (error) {
      // The upstream no longer knows the voice (e.g. an earlier deletion whose answer was lost): it is gone.
      if (error instanceof UpstreamRejectedError && error.httpStatus === 404) return;
      if (error instanceof UpstreamRejectedError) {
        throw upstreamRejection(error, 'deletion', 'voice_id');
      }
      throw GatewayError.unavailable('The voice could not be deleted now; try again.');
    } finally {
      addUpstreamTime(ctx, timing.upstreamMs);
    }
  }

  /** The upstream body's voice source; a `video_id` must name a succeeded editing result of this account. */
  private async upstreamSource(
    principal: Principal,
    source: KlVoiceSource,
  ): Promise<{ body: Record<string, unknown>; channelId: string | null }> {
    if (source.kind === 'url') return { body: { voice_url: source.url }, channelId: null };
    const task = await this.queries
      .findVisible(principal, KL_FAMILY_ID, source.taskId, KL_MULTI_ELEMENTS)
      .catch(() => null);
    const video = task?.phase === 'succeeded' ? task.result?.videos?.[source.index] : undefined;
    if (!task || !video?.id) throw videoNotFound();
    return { body: { video_id: video.id }, channelId: task.channelId };
  }
}

function voiceNotFound(): GatewayError {
  return klNotFound('voice_id');
}
