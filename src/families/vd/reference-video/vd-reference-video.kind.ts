import { FamilyTaskKind } from '../../common/family-tasks.service';
import { VD_FAMILY_ID, VD_REFERENCE2VIDEO } from '../vd.ids';
import { VdTaskCreationResponseDto } from './vd-create.dto';
import { VdCreateRequest } from './vd-create.rules';
import { presentVdCreated, presentVdCreations } from './vd-task.presenter';
import { VdCreationsResponse } from './vd-task.responses';

/** vd reference-to-video tasks: the checked request as a task, presented from the record. */
export const VD_REFERENCE_VIDEO: FamilyTaskKind<VdCreateRequest, VdTaskCreationResponseDto, VdCreationsResponse> = {
  family: VD_FAMILY_ID,
  action: VD_REFERENCE2VIDEO,
  draft: (request) => ({
    upstreamBody: request.upstreamBody,
    snapshot: request.snapshot,
    billing: request.billing,
    callbackUrl: request.callbackUrl ?? null,
    creationEcho: { ...request.echo },
  }),
  presentCreated: (task) => presentVdCreated(task),
  present: (task) => presentVdCreations(task),
};
