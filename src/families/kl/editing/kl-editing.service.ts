import { Injectable } from '@nestjs/common';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TaskEngine } from '../../../core/tasks/task-engine.service';
import { TaskQueries } from '../../../core/tasks/task-queries.service';
import type { RequestContext } from '../../../platform/http/request-context';
import { KL_FAMILY_ID, KL_MULTI_ELEMENTS } from '../kl.ids';
import { KlSessionsService } from '../sessions/kl-sessions.service';
import { klCreatedData, klEnvelope } from '../tasks/kl-task.presenter';
import { presentKlEditingTask } from './kl-editing-task.presenter';
import { RemoteMediaProbe } from '../../common/media-probe-remote';
import { checkDurationFits, checkKlImageUrls, KlEditingRequest, klEditingUpstreamBody } from './kl-editing.rules';
import { KlEditingCreatedResponse, KlEditingListResponse, KlEditingTaskResponse } from './kl-editing.responses';
import { KlListQuery, presentKlList } from '../tasks/kl-task-list';

/** kl editing tasks: checked against the session, handed to the engine, presented from the record. */
@Injectable()
export class KlEditingService {
  constructor(
    private readonly engine: TaskEngine,
    private readonly queries: TaskQueries,
    private readonly sessions: KlSessionsService,
    private readonly media: RemoteMediaProbe,
  ) {}

  async create(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    request: KlEditingRequest,
  ): Promise<KlEditingCreatedResponse> {
    const session = await this.sessions.findLive(principal, request.dto.session_id);
    checkDurationFits(request.duration, session.originalDuration);
    // Last of the checks: the only one that goes over the network.
    await checkKlImageUrls(request, this.media);
    const wire = klEditingUpstreamBody(request, session.upstreamSessionId);
    const task = await this.engine.create(
      principal,
      {
        family: KL_FAMILY_ID,
        action: KL_MULTI_ELEMENTS,
        model,
        upstreamBody: wire.body,
        snapshot: { ...wire.snapshot, session_id: session.id },
        billing: request.billing,
        externalTaskId: request.dto.external_task_id ?? null,
        callbackUrl: request.dto.callback_url ?? null,
        creationEcho: {
          session_id: session.id,
          duration: request.duration,
          watermark_enabled: request.dto.watermark_info?.enabled === true,
        },
        // The upstream session lives on one channel (one upstream account): the task must go there.
        channelId: session.channelId,
      },
      ctx,
    );
    return klEnvelope(klCreatedData(task), ctx.requestId);
  }

  async get(ctx: RequestContext, principal: Principal, taskId: string): Promise<KlEditingTaskResponse> {
    return presentKlEditingTask(
      await this.queries.findVisible(principal, KL_FAMILY_ID, taskId, KL_MULTI_ELEMENTS),
      ctx.requestId,
    );
  }

  async list(ctx: RequestContext, principal: Principal, query: KlListQuery): Promise<KlEditingListResponse> {
    const page = await this.queries.list(principal, { family: KL_FAMILY_ID, action: KL_MULTI_ELEMENTS, ...query });
    return presentKlList(page, query, KL_MULTI_ELEMENTS, (task) => presentKlEditingTask(task), ctx.requestId);
  }
}
