import { Injectable } from '@nestjs/common';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TaskEngine } from '../../../core/tasks/task-engine.service';
import { TaskQueries } from '../../../core/tasks/task-queries.service';
import type { RequestContext } from '../../../platform/http/request-context';
import { AX_FAMILY_ID, AX_REFERENCE2VIDEO } from '../ax.ids';
import { validateAxCreateRequest } from './ax-create.rules';
import { AX_DEPRECATED_FIELD_ECHO, presentAxCreated, presentAxTask } from './ax-task.presenter';
import { AxCreatedResponse, AxTaskResponse } from './ax-task.responses';

/** Family B reference-to-video: validate, hand to the engine, present from the record. */
@Injectable()
export class AxReferenceVideoService {
  constructor(
    private readonly engine: TaskEngine,
    private readonly queries: TaskQueries,
  ) {}

  /** `deprecatedField`: the body used `input.reference_video_urls` (the caller gets a `Deprecation` header). */
  async create(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    body: unknown,
  ): Promise<{ answer: AxCreatedResponse; deprecatedField: boolean }> {
    const request = validateAxCreateRequest(body);
    const task = await this.engine.create(
      principal,
      {
        family: AX_FAMILY_ID,
        action: AX_REFERENCE2VIDEO,
        model,
        upstreamBody: request.upstreamBody as unknown as Record<string, unknown>,
        snapshot: request.snapshot,
        billing: request.billing,
        creationEcho: request.usedDeprecatedField ? { [AX_DEPRECATED_FIELD_ECHO]: true } : null,
      },
      ctx,
    );
    return { answer: presentAxCreated(task, ctx.requestId), deprecatedField: request.usedDeprecatedField };
  }

  async get(ctx: RequestContext, principal: Principal, taskId: string): Promise<AxTaskResponse> {
    return presentAxTask(await this.queries.findVisible(principal, AX_FAMILY_ID, taskId), ctx.requestId);
  }
}
