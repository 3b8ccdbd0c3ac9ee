import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GatewayError } from '../../platform/errors';

export type VideoContentVariant = 'video' | 'thumbnail';

export interface VideoListQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

const LIMIT = { min: 1, max: 100, default: 20 };

/** `GET /v1/videos` query: `after` (a video ID), `limit` 1-100 (20), `order` asc/desc (desc). */
export function readListQuery(query: Record<string, unknown>): VideoListQuery {
  const { after, limit, order } = query;
  if (after !== undefined && (typeof after !== 'string' || after.length === 0 || after.length > 64))
    throw GatewayError.invalid('after must be a video ID.', 'after');
  let pageSize = LIMIT.default;
  if (limit !== undefined) {
    if (typeof limit !== 'string' || !/^\d{1,3}$/.test(limit) || Number(limit) < LIMIT.min || Number(limit) > LIMIT.max)
      throw GatewayError.invalid(`limit must be an integer from ${LIMIT.min} to ${LIMIT.max}.`, 'limit');
    pageSize = Number(limit);
  }
  if (order !== undefined && order !== 'asc' && order !== 'desc')
    throw GatewayError.invalid("order must be 'asc' or 'desc'.", 'order');
  return {
    after: after as string | undefined,
    limit: pageSize,
    order: (order as 'asc' | 'desc' | undefined) ?? 'desc',
  };
}

/** `variant` of `GET /v1/videos/{id}/content`: the families produce a video and (vd) a thumbnail. */
export function readVariant(query: Record<string, unknown>): VideoContentVariant {
  const variant = query.variant ?? 'video';
  if (variant === 'video' || variant === 'thumbnail') return variant;
  // A variant the families never produce (`spritesheet`) is not there to find.
  throw new GatewayError(404, 'not_found', `The ${String(variant).slice(0, 32)} variant is not available.`, 'variant');
}

export class VideoReferenceDto {
  @ApiProperty({ example: 'https://example.com/cat.png', description: 'http(s) URL or data:image URL.' })
  image_url: string;
}

/**
 * The create body (JSON or multipart/form-data). Documentation only: the fields are mapped onto the
 * family's native body, which the family's own rules then check.
 */
export class CreateVideoBodyDto {
  @ApiProperty({ example: 'vdq3', description: 'An ax or vd model that the key may use.' })
  model: string;

  @ApiPropertyOptional({ example: 'A cat plays in a sunny garden.' })
  prompt?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'integer' }],
    example: '5',
    description: "Whole seconds: the family's duration (its range per model applies).",
  })
  seconds?: string | number;

  @ApiPropertyOptional({
    example: '1280x720',
    description:
      'WxH from the family\'s size table (docs/api.md, "OpenAI-compatible videos"): its resolution and ratio.',
  })
  size?: string;

  @ApiPropertyOptional({
    type: () => VideoReferenceDto,
    example: { image_url: 'https://example.com/cat.png' },
    description: "{image_url}, or (multipart) an uploaded image file. Becomes ax's reference image and vd's `images`.",
  })
  input_reference?: VideoReferenceDto;
}
