import { FamilyTaskKind } from '../../common/family-tasks.service';
import { AX_FAMILY_ID, AX_REFERENCE2VIDEO } from '../ax.ids';
import { AxCreateRequest } from './ax-create.rules';
import { AX_DEPRECATED_FIELD_ECHO, presentAxCreated, presentAxTask } from './ax-task.presenter';
import { AxCreatedResponse, AxTaskResponse } from './ax-task.responses';

/** ax reference-to-video tasks: the checked request as a task, presented from the record. */
export const AX_REFERENCE_VIDEO: FamilyTaskKind<AxCreateRequest, AxCreatedResponse, AxTaskResponse> = {
  family: AX_FAMILY_ID,
  action: AX_REFERENCE2VIDEO,
  draft: (request) => ({
    upstreamBody: request.upstreamBody as unknown as Record<string, unknown>,
    snapshot: request.snapshot,
    billing: request.billing,
    // A retry answered from the task gets the `Deprecation` header the first answer carried.
    creationEcho: request.usedDeprecatedField ? { [AX_DEPRECATED_FIELD_ECHO]: true } : null,
  }),
  presentCreated: presentAxCreated,
  present: presentAxTask,
};
