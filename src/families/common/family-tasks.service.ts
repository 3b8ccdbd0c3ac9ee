import { Injectable } from '@nestjs/common';
import { Principal } from '../../core/accounts/principal';
import { FamilyId, ModelDescriptor } from '../../core/models/model-catalogue';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { TaskDraft } from '../../core/tasks/task-draft';
import { TaskEngine } from '../../core/tasks/task-engine.service';
import { TaskQueries } from '../../core/tasks/task-queries.service';
import type { RequestContext } from '../../platform/http/request-context';

/** What a family's checked request gives the engine: the task, less what the route already knows. */
export type FamilyTaskDraft = Omit<TaskDraft, 'family' | 'action' | 'model'>;

/**
 * One task kind of a family, as data: which tasks it is, what a checked request becomes, and how
 * the create and query endpoints present a task (`requestId`: the asking request's).
 */
export interface FamilyTaskKind<Request, Created, Answer> {
  readonly family: FamilyId;
  readonly action: string;
  draft(request: Request): FamilyTaskDraft;
  presentCreated(task: TaskEntity, requestId: string): Created;
  present(task: TaskEntity, requestId: string): Answer;
}

/** Creates and reads the tasks of a family's kind: the one create path every such family shares. */
@Injectable()
export class FamilyTasksService {
  constructor(
    private readonly engine: TaskEngine,
    private readonly queries: TaskQueries,
  ) {}

  async create<Request, Created>(
    kind: FamilyTaskKind<Request, Created, unknown>,
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    request: Request,
  ): Promise<Created> {
    const draft: TaskDraft = { family: kind.family, action: kind.action, model, ...kind.draft(request) };
    const task = await this.engine.create(principal, draft, ctx);
    return kind.presentCreated(task, ctx.requestId);
  }

  /** The caller's task of this kind, from the gateway's record; 404 when it is not visible to the caller. */
  async get<Answer>(
    kind: FamilyTaskKind<never, unknown, Answer>,
    ctx: RequestContext,
    principal: Principal,
    id: string,
  ): Promise<Answer> {
    return kind.present(await this.queries.findVisible(principal, kind.family, id), ctx.requestId);
  }
}
