/**
 * Shapes of the ax create body, one DTO per protocol (new and old). They check types, enums,
 * fixed ranges and unknown fields through `validateDto`; rules that depend on several fields (media
 * counts, the video-dependent duration maximum, audio per model, inline image probing) live in
 * `ax-create.rules.ts`.
 * The @ApiProperty metadata documents the same shapes in OpenAPI.
 *
 * `validateDto` reports a property's first failure, and its type check runs first (`typeChecksFirst`):
 * `"5"` for a duration reads "must be an integer", not "must not be greater than 10".
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  AX_MEDIA_TYPES,
  AX_IMAGE_LIMITS,
  AX_NEW,
  AX_NEW_MODELS,
  AX_OLD,
  AX_OLD_VIDEO_LIMITS,
  AX_OLD_MODELS,
  AX_OLD_SIZE_VALUES,
  AX_RATIOS,
  AX_RESOLUTIONS,
  AX_SEED,
  AX_SHOT_TYPES,
  AxMediaType,
  AxResolution,
} from '../rules/ax-model-rules';
import { MaxChars, MaxMediaChars, MaxUrl, NotBlank } from '../../common/text-rules';

// ---------------------------------------------------------------------------------------------
// New protocol (wx2.7-r2v, wx2.7-r2v-2026-06-12)
// ---------------------------------------------------------------------------------------------

export class AxMediaItemDto {
  @ApiProperty({
    enum: AX_MEDIA_TYPES,
    example: 'reference_image',
    description: 'reference_image (subject or scene), reference_video (subject plus voice), first_frame (at most one).',
  })
  @IsIn(AX_MEDIA_TYPES)
  @IsString()
  type: AxMediaType;

  @ApiProperty({
    example: 'https://example.com/cat.png',
    description:
      'Images: http(s) URL (jpg, jpeg, png, bmp, webp) or data:{MIME_type};base64,{data} (JPEG/PNG without transparency/BMP/WEBP, 240 to 8000 px per side, ratio 1:8 to 8:1, at most 20 MB). Videos: http(s) URL only (mp4, mov).',
  })
  @NotBlank()
  @MaxMediaChars(AX_IMAGE_LIMITS['ax-r2v-new'].maxBytes)
  @IsString()
  url: string;

  @ApiPropertyOptional({
    example: 'https://example.com/voice.mp3',
    description:
      "http(s) URL of a WAV or MP3 voice sample for this material's subject; reference_image and reference_video items only.",
  })
  @IsOptional()
  @NotBlank()
  @MaxUrl()
  @IsString()
  reference_voice?: string;
}

export class AxNewInputDto {
  @ApiProperty({
    example: 'Image 1 plays with the dog of Video 1 in a sunny garden.',
    description: `Chinese or English; longer than ${AX_NEW.promptMaxChars} characters is accepted and truncated to ${AX_NEW.promptMaxChars}.`,
  })
  @NotBlank()
  @IsString()
  prompt: string;

  @ApiPropertyOptional({ example: 'blurry, low quality', maxLength: AX_NEW.negativePromptMaxChars })
  @IsOptional()
  @MaxChars(AX_NEW.negativePromptMaxChars)
  @IsString()
  negative_prompt?: string;

  @ApiProperty({
    type: () => [AxMediaItemDto],
    description: `At most ${AX_NEW.maxFirstFrames} first_frame; reference_image plus reference_video ${AX_NEW.references.min} to ${AX_NEW.references.max} in total.`,
    example: [
      { type: 'reference_image', url: 'https://example.com/cat.png' },
      { type: 'reference_video', url: 'https://example.com/dog.mp4', reference_voice: 'https://example.com/dog.wav' },
    ],
  })
  @Type(() => AxMediaItemDto)
  @ValidateNested({ each: true })
  @IsArray()
  media: AxMediaItemDto[];
}

export class AxNewParametersDto {
  @ApiPropertyOptional({
    enum: AX_RESOLUTIONS,
    default: AX_NEW.defaults.resolution,
    example: '720P',
    description: 'Affects cost.',
  })
  @IsOptional()
  @IsIn(AX_RESOLUTIONS)
  @IsString()
  resolution?: AxResolution;

  @ApiPropertyOptional({
    enum: AX_RATIOS,
    default: AX_NEW.defaults.ratio,
    example: '16:9',
    description: 'Ignored upstream when a first_frame is given.',
  })
  @IsOptional()
  @IsIn(AX_RATIOS)
  @IsString()
  ratio?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: AX_NEW.duration.min,
    maximum: AX_NEW.duration.max,
    default: AX_NEW.defaults.duration,
    example: 5,
    description: `Seconds; ${AX_NEW.durationWithVideo.min} to ${AX_NEW.durationWithVideo.max} when a reference_video is given, ${AX_NEW.duration.min} to ${AX_NEW.duration.max} otherwise. Affects cost.`,
  })
  @IsOptional()
  @Max(AX_NEW.duration.max)
  @Min(AX_NEW.duration.min)
  @IsInt()
  duration?: number;

  @ApiPropertyOptional({ default: AX_NEW.defaults.prompt_extend, example: true })
  @IsOptional()
  @IsBoolean()
  prompt_extend?: boolean;

  @ApiPropertyOptional({ default: AX_NEW.defaults.watermark, example: false })
  @IsOptional()
  @IsBoolean()
  watermark?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: AX_SEED.min,
    maximum: AX_SEED.max,
    example: 42,
    description: 'Random when absent.',
  })
  @IsOptional()
  @Max(AX_SEED.max)
  @Min(AX_SEED.min)
  @IsInt()
  seed?: number;
}

export class AxNewCreateBodyDto {
  @ApiProperty({ enum: AX_NEW_MODELS, example: 'wx2.7-r2v' })
  @IsIn(AX_NEW_MODELS)
  @IsString()
  model: string;

  @ApiProperty({ type: () => AxNewInputDto })
  @Type(() => AxNewInputDto)
  @ValidateNested()
  @IsObject()
  input: AxNewInputDto;

  @ApiPropertyOptional({ type: () => AxNewParametersDto })
  @IsOptional()
  @Type(() => AxNewParametersDto)
  @ValidateNested()
  @IsObject()
  parameters?: AxNewParametersDto;
}

// ---------------------------------------------------------------------------------------------
// Old protocol (wx2.6-r2v, wx2.6-r2v-flash)
// ---------------------------------------------------------------------------------------------

const REFERENCE_URLS_DOC =
  'Images 0 to 5, videos 0 to 3, at most 5 together (at least 1). Each an http(s) URL or a data URL (data:image/... or data:video/mp4|quicktime). A URL whose path ends in .mp4/.mov, or a data:video/ URL, counts as a video.';

export class AxOldInputDto {
  @ApiProperty({
    example: 'character1 walks a dog in the park.',
    maxLength: AX_OLD.promptMaxChars,
    description: 'Refers to character1, character2, ... in reference order.',
  })
  @MaxChars(AX_OLD.promptMaxChars)
  @NotBlank()
  @IsString()
  prompt: string;

  @ApiPropertyOptional({ example: 'blurry', maxLength: AX_OLD.negativePromptMaxChars })
  @IsOptional()
  @MaxChars(AX_OLD.negativePromptMaxChars)
  @IsString()
  negative_prompt?: string;

  // Required, but its absence gets the native rejection before DTO validation runs.
  @ApiProperty({
    type: [String],
    example: ['https://example.com/person.png', 'https://example.com/dance.mp4'],
    description: REFERENCE_URLS_DOC,
  })
  @IsOptional()
  @IsArray()
  @MaxMediaChars(AX_OLD_VIDEO_LIMITS.maxBytes, { each: true })
  reference_urls?: unknown[];

  @ApiPropertyOptional({
    type: [String],
    deprecated: true,
    description: 'Deprecated name of reference_urls; forwarded as reference_urls. Do not send both.',
  })
  @IsOptional()
  @IsArray()
  @MaxMediaChars(AX_OLD_VIDEO_LIMITS.maxBytes, { each: true })
  reference_video_urls?: unknown[];
}

export class AxOldParametersDto {
  @ApiPropertyOptional({
    enum: AX_OLD_SIZE_VALUES,
    default: AX_OLD.defaults.size,
    example: '1280*720',
    description:
      'Concrete pixels width*height; the 720P tier is the first five values, 1080P the last five. Affects cost.',
  })
  @IsOptional()
  @IsIn(AX_OLD_SIZE_VALUES, { message: `$property must be one of the concrete sizes ${AX_OLD_SIZE_VALUES.join(', ')}` })
  @IsString()
  size?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: AX_OLD.duration.min,
    maximum: AX_OLD.duration.max,
    default: AX_OLD.defaults.duration,
    example: 5,
  })
  @IsOptional()
  @Max(AX_OLD.duration.max)
  @Min(AX_OLD.duration.min)
  @IsInt()
  duration?: number;

  @ApiPropertyOptional({ enum: AX_SHOT_TYPES, default: AX_OLD.defaults.shot_type, example: 'multi' })
  @IsOptional()
  @IsIn(AX_SHOT_TYPES)
  @IsString()
  shot_type?: string;

  @ApiPropertyOptional({
    default: true,
    example: false,
    description: 'wx2.6-r2v-flash only: true sound, false silent. Affects cost.',
  })
  @IsOptional()
  @IsBoolean()
  audio?: boolean;

  @ApiPropertyOptional({ default: AX_OLD.defaults.watermark, example: false })
  @IsOptional()
  @IsBoolean()
  watermark?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: AX_SEED.min,
    maximum: AX_SEED.max,
    example: 42,
    description: 'Random when absent.',
  })
  @IsOptional()
  @Max(AX_SEED.max)
  @Min(AX_SEED.min)
  @IsInt()
  seed?: number;
}

export class AxOldCreateBodyDto {
  @ApiProperty({ enum: AX_OLD_MODELS, example: 'wx2.6-r2v-flash' })
  @IsIn(AX_OLD_MODELS)
  @IsString()
  model: string;

  @ApiProperty({ type: () => AxOldInputDto })
  @Type(() => AxOldInputDto)
  @ValidateNested()
  @IsObject()
  input: AxOldInputDto;

  @ApiPropertyOptional({ type: () => AxOldParametersDto })
  @IsOptional()
  @Type(() => AxOldParametersDto)
  @ValidateNested()
  @IsObject()
  parameters?: AxOldParametersDto;
}
