import type { FamilyId } from '../../core/models/model-catalogue';
import { FamilyTaskKind } from '../../families/common/family-tasks.service';
import { AX_REFERENCE_VIDEO } from '../../families/ax/reference-video/ax-reference-video.kind';
import { validateAxCreateRequest } from '../../families/ax/reference-video/ax-create.rules';
import { VD_REFERENCE_VIDEO } from '../../families/vd/reference-video/vd-reference-video.kind';
import { validateVdCreateRequest } from '../../families/vd/reference-video/vd-create.rules';
import type { MediaUrlPolicy } from '../../families/common/media-url-policy';
import { AX_FACE, FaceMapping, VD_FACE } from './video-mapping';

/** A family this API serves: its mapping, and its own rules and task kind (the face adds none). */
export interface VideoFamily {
  readonly mapping: FaceMapping;
  /** The family's create rules, exactly as its native route runs them. */
  readonly rules: (body: unknown, urls: MediaUrlPolicy) => unknown;
  readonly kind: FamilyTaskKind<unknown, unknown, unknown>;
  /** The family's status words for a task still waiting its turn (`queued` rather than `in_progress`). */
  readonly queuedWords: readonly string[];
}

export const VIDEO_FAMILIES: Readonly<Partial<Record<FamilyId, VideoFamily>>> = Object.freeze({
  [AX_FACE.family]: {
    mapping: AX_FACE,
    rules: validateAxCreateRequest,
    kind: AX_REFERENCE_VIDEO as FamilyTaskKind<unknown, unknown, unknown>,
    queuedWords: ['PENDING'],
  },
  [VD_FACE.family]: {
    mapping: VD_FACE,
    rules: (body: unknown, urls: MediaUrlPolicy) => validateVdCreateRequest(body, { urls }),
    kind: VD_REFERENCE_VIDEO as FamilyTaskKind<unknown, unknown, unknown>,
    queuedWords: ['created', 'queueing'],
  },
});

/** The families of this API, for queries over its videos. */
export const VIDEO_FAMILY_IDS: readonly FamilyId[] = Object.keys(VIDEO_FAMILIES) as FamilyId[];
