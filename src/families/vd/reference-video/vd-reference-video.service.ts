import { Injectable } from '@nestjs/common';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TaskEngine } from '../../../core/tasks/task-engine.service';
import { TaskQueries } from '../../../core/tasks/task-queries.service';
import { VD_FAMILY_ID, VD_REFERENCE2VIDEO } from '../vd.ids';
import { VdTaskCreationResponseDto } from './vd-create.dto';
import { validateVdCreateRequest } from './vd-create.rules';
import { presentVdCreated, presentVdCreations } from './vd-task.presenter';
import { VdCreationsResponse } from './vd-task.responses';
import type { RequestContext } from '../../../platform/http/request-context';

/** Family C reference-to-video: validate (mode from the body), hand to the engine, present from the record. */
@Injectable()
export class VdReferenceVideoService {
  constructor(
    private readonly engine: TaskEngine,
    private readonly queries: TaskQueries,
  ) {}

  async create(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    body: unknown,
  ): Promise<VdTaskCreationResponseDto> {
    const request = validateVdCreateRequest(body);
    const task = await this.engine.create(
      principal,
      {
        family: VD_FAMILY_ID,
        action: VD_REFERENCE2VIDEO,
        model,
        upstreamBody: request.upstreamBody,
        snapshot: request.snapshot,
        billing: request.billing,
        callbackUrl: request.callbackUrl ?? null,
        creationEcho: { ...request.echo },
      },
      ctx,
    );
    return presentVdCreated(task);
  }

  async creations(principal: Principal, id: string): Promise<VdCreationsResponse> {
    return presentVdCreations(await this.queries.findVisible(principal, VD_FAMILY_ID, id));
  }
}
