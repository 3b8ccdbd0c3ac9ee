/**
 * Shapes of the kl session bodies. Types, ranges and unknown fields
 * through `validateDto`; rules that need the session record live in `kl-session.rules.ts`.
 * `model_name` / `model` are accepted on every POST: they select the model.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MaxUrl, NotBlank, TEXT_LIMITS } from '../../common/text-rules';
import { KlModelFieldsDto } from '../kl-model-selection';

export const KL_MAX_MARKED_FRAMES = 10;
export const KL_MAX_POINTS_PER_FRAME = 10;

export class KlInitSelectionDto extends KlModelFieldsDto {
  @ApiPropertyOptional({
    description:
      'A video this account generated (gateway public ID, e.g. `video_01jd..._0`), at most 30 days old. Exactly one of video_id and video_url.',
  })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  video_id?: string;

  @ApiPropertyOptional({
    example: 'https://example.com/clip.mp4',
    description: 'http(s) URL of an MP4/MOV: 2-5 s or 7-10 s, sides 720-2160 px, 24/30/60 fps.',
    maxLength: TEXT_LIMITS.url,
  })
  @IsOptional()
  @MaxUrl()
  @IsString()
  video_url?: string;
}

export class KlSessionIdDto extends KlModelFieldsDto {
  @ApiProperty({ example: 'sess_01jd...' })
  @NotBlank()
  @MaxLength(64)
  @IsString()
  session_id: string;
}

export class KlPointDto {
  @ApiProperty({ example: 0.5, minimum: 0, maximum: 1 })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  x: number;

  @ApiProperty({ example: 0.5, minimum: 0, maximum: 1 })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  y: number;
}

export class KlSelectionDto extends KlSessionIdDto {
  @ApiProperty({ example: 0, description: 'Frame number, 0 to total_frame - 1.' })
  @Min(0)
  @IsInt()
  frame_index: number;

  @ApiProperty({ type: () => [KlPointDto], description: `1 to ${KL_MAX_POINTS_PER_FRAME} points.` })
  @ValidateNested({ each: true })
  @Type(() => KlPointDto)
  @ArrayMaxSize(KL_MAX_POINTS_PER_FRAME)
  @ArrayMinSize(1)
  @IsArray()
  points: KlPointDto[];
}
