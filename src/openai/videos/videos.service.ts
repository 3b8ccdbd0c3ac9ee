import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { keyAllowsModel } from '../../core/accounts/guards/model-access.guard';
import { Principal } from '../../core/accounts/principal';
import { ModelDescriptor } from '../../core/models/model-catalogue';
import { ResultFilesRepository } from '../../core/result-keeping/result-files.repository';
import { ResultLinks } from '../../core/result-keeping/result-links';
import { coverSlot, resultFileId, videoSlot } from '../../core/result-keeping/result-slots';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { TaskDeletion } from '../../core/tasks/task-deletion.service';
import { TaskFace, TASK_FACE_ECHO } from '../../core/tasks/task-faces';
import { TaskEngine } from '../../core/tasks/task-engine.service';
import { isDeleted } from '../../core/tasks/task-queries.service';
import { TasksRepository } from '../../core/tasks/tasks.repository';
import { MediaUrlPolicy, mediaUrlPolicy } from '../../families/common/media-url-policy';
import { AppConfig } from '../../platform/config/app-config';
import { GatewayError } from '../../platform/errors';
import type { RequestContext } from '../../platform/http/request-context';
import { Clock } from '../../platform/time/clock';
import { ResultServing } from '../../result-serving/result-serving.service';
import { VideoListQuery, VideoContentVariant } from './video.requests';
import { VideoDeletedResponse, VideoListResponse, VideoResponse } from './video.responses';
import { VIDEO_FAMILIES, VIDEO_FAMILY_IDS } from './video-families';
import {
  FACE_FIELDS,
  FaceValues,
  readReference,
  readSeconds,
  readSize,
  rejectConflicts,
  renameParam,
} from './video-mapping';
import { OPENAI_FACE, presentDeleted, presentVideo, presentVideoEvent } from './video.presenter';
import { VideosRepository } from './videos.repository';

/** An uploaded `input_reference` image, already read by the multipart parser. */
export interface UploadedImage {
  mimetype: string;
  buffer: Buffer;
}

/** A result link minted for one answer lives this long: enough to start streaming it. */
const CONTENT_LINK_SECONDS = 60;
/** The file of a finished task each `variant` is; a variant the families do not produce is absent. */
const VARIANT_SLOTS: Readonly<Record<VideoContentVariant, string>> = { video: videoSlot(0), thumbnail: coverSlot(0) };

/**
 * The OpenAI-shaped video API over families B and C: a create maps its fields onto the family's
 * native body and runs that family's rules and the core's task creation; reads present the same
 * task records the native routes read.
 */
@Injectable()
export class VideosService implements TaskFace {
  readonly name = OPENAI_FACE;
  private readonly urls: MediaUrlPolicy;

  constructor(
    private readonly engine: TaskEngine,
    private readonly tasks: TasksRepository,
    private readonly videos: VideosRepository,
    private readonly files: ResultFilesRepository,
    private readonly deletion: TaskDeletion,
    private readonly links: ResultLinks,
    private readonly serving: ResultServing,
    private readonly clock: Clock,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.urls = mediaUrlPolicy(config);
  }

  async create(
    ctx: RequestContext,
    principal: Principal,
    model: ModelDescriptor,
    body: Record<string, unknown>,
    upload?: UploadedImage,
  ): Promise<VideoResponse> {
    const family = VIDEO_FAMILIES[model.family];
    if (!family) throw GatewayError.invalid(`The model '${model.name}' is not served by /v1/videos.`, 'model');
    const { mapping } = family;
    if (upload && body.input_reference !== undefined)
      throw GatewayError.invalid('Send input_reference as a file or as {image_url}, not both.', 'input_reference');
    const native = Object.fromEntries(
      Object.entries(body).filter(([key]) => !(FACE_FIELDS as readonly string[]).includes(key)),
    );
    const values: FaceValues = {
      model: model.name,
      prompt: body.prompt,
      seconds: readSeconds(body.seconds),
      size: readSize(body.size, mapping),
      image: upload ? dataUrl(upload) : readReference(body.input_reference),
    };
    rejectConflicts(mapping, values, native);
    let request: unknown;
    try {
      request = family.rules(mapping.nativeBody(values, native), this.urls);
    } catch (error) {
      throw error instanceof GatewayError ? renameParam(error, mapping, values, native) : error;
    }
    const draft = family.kind.draft(request);
    const task = await this.engine.create(
      principal,
      {
        family: family.kind.family,
        action: family.kind.action,
        model,
        ...draft,
        creationEcho: { ...(draft.creationEcho ?? {}), [TASK_FACE_ECHO]: OPENAI_FACE },
      },
      ctx,
    );
    return presentVideo(task, null);
  }

  async retrieve(principal: Principal, id: string): Promise<VideoResponse> {
    const task = await this.findVisible(principal, id);
    return presentVideo(task, await this.keptExpiry(task));
  }

  /** The caller's videos by ID (deleted ones are left out by the query). */
  async list(principal: Principal, query: VideoListQuery): Promise<VideoListResponse> {
    // One more than asked for: whether there is more.
    const found = await this.videos.page({
      accountId: principal.account.id,
      families: VIDEO_FAMILY_IDS,
      models: principal.apiKey.models,
      after: query.after,
      order: query.order,
      limit: query.limit + 1,
    });
    const data = found.slice(0, query.limit);
    const expiries = await this.expiries(data);
    return {
      object: 'list',
      data: data.map((task) => presentVideo(task, expiries.get(task.id) ?? null)),
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: found.length > query.limit,
    };
  }

  /** Streams the kept copy (or the upstream's, until it is kept) through the result store's serving, with Range. */
  async content(
    principal: Principal,
    id: string,
    variant: VideoContentVariant,
    req: Request,
    res: Response,
  ): Promise<void> {
    const task = await this.findVisible(principal, id);
    if (task.phase !== 'succeeded') throw GatewayError.notFound('Video content');
    const slot = VARIANT_SLOTS[variant];
    const video = task.result?.videos[0];
    const exists = variant === 'video' ? Boolean(video?.url) : Boolean(video?.coverUrl);
    if (!exists) throw new GatewayError(404, 'not_found', `This video has no ${variant} variant.`, 'variant');
    const expiresAt = Math.floor(this.clock.nowMs() / 1000) + CONTENT_LINK_SECONDS;
    await this.serving.serve(this.links.token({ taskId: task.id, slot, expiresAt }), req, res);
  }

  /**
   * Deletes the video on every route (this one and its family's native ones): its kept files go,
   * its result URLs answer 404; what was billed stays billed.
   */
  async delete(principal: Principal, id: string): Promise<VideoDeletedResponse> {
    const task = await this.findVisible(principal, id);
    if (!(await this.deletion.delete(task)))
      throw GatewayError.invalid('Only a completed or failed video can be deleted.');
    return presentDeleted(task.id);
  }

  createdBody(task: TaskEntity): unknown {
    return presentVideo(task, null);
  }

  async callbackBody(task: TaskEntity, keptIn?: EntityManager): Promise<unknown> {
    return presentVideoEvent(task, this.clock.nowMs(), keptIn ? await this.keptExpiry(task, keptIn) : null);
  }

  /** When the kept copy of the video goes (ms), or null while there is none. */
  private async keptExpiry(task: TaskEntity, manager?: EntityManager): Promise<number | null> {
    // Only a finished task has a kept copy: the others cost no second read.
    if (task.phase !== 'succeeded') return null;
    const kept = await this.files.findById(resultFileId(task.id, videoSlot(0)), manager);
    return kept?.status === 'stored' ? kept.expiresAt : null;
  }

  /** The caller's task of a served family that the key may see and that was not deleted; 404 otherwise. */
  private async findVisible(principal: Principal, id: string): Promise<TaskEntity> {
    const task = await this.tasks.findForAccount(id, principal.account.id);
    const visible =
      task !== null &&
      VIDEO_FAMILIES[task.family] !== undefined &&
      task.phase !== 'rejected' &&
      !isDeleted(task) &&
      keyAllowsModel(principal.apiKey.models, task.model);
    if (!visible) throw GatewayError.notFound('Video');
    return task;
  }

  private async expiries(tasks: TaskEntity[]): Promise<Map<string, number>> {
    const wanted = new Set(tasks.map((task) => resultFileId(task.id, videoSlot(0))));
    if (wanted.size === 0) return new Map();
    const files = await this.files.forTasks(tasks.map((task) => task.id));
    return new Map(
      files
        .filter((f) => wanted.has(f.id) && f.status === 'stored' && f.expiresAt !== null)
        .map((f) => [f.taskId, f.expiresAt as number]),
    );
  }
}

function dataUrl(upload: UploadedImage): string {
  if (!/^image\/[a-z0-9.+-]+$/i.test(upload.mimetype))
    throw GatewayError.invalid('input_reference must be an image file.', 'input_reference');
  return `data:${upload.mimetype.toLowerCase()};base64,${upload.buffer.toString('base64')}`;
}
