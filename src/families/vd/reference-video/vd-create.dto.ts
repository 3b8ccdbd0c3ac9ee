/**
 * Wire shapes of `POST /vd/ent/v2/reference2video`, one class per mode.
 * These check shape and type only (strict: no implicit conversion, unknown fields rejected by
 * `validateDto`); limits that vary by model live in `core/models/rules/vd-model-rules.ts` and are
 * applied by `vd-create.rules.ts`. Limits that are the same for every model are declared here.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
  buildMessage,
} from 'class-validator';
import { MaxChars, MaxMediaChars, MaxUrl, TEXT_LIMITS } from '../../common/text-rules';
import { VD_LIMITS, VD_MODEL_NAMES } from '../rules/vd-model-rules';
import { isHttpUrl } from '../rules/vd-media';

/** `meta_data` must be a JSON-formatted string: anything `JSON.parse` accepts. */
function IsJsonText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isJsonText',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          try {
            JSON.parse(value);
            return true;
          } catch {
            return false;
          }
        },
        defaultMessage: buildMessage((each) => `${each}$property must be a JSON-formatted string`, options),
      },
    },
    options,
  );
}

/** http(s) URL with a host (WHATWG parsing, as the callback sender will use). */
function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isHttpUrl(value),
        defaultMessage: buildMessage((each) => `${each}$property must be an http(s) URL`, options),
      },
    },
    options,
  );
}

const PNG_EXAMPLE = 'https://example.com/refs/cat.png';

export class VdSubjectDto {
  @ApiProperty({ description: 'Subject name, referenced in the prompt as `@name`.', example: 'cat' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(TEXT_LIMITS.name)
  name: string;

  @ApiPropertyOptional({
    description:
      'At most 3 images: URL or Base64 with its content-type prefix; png, jpeg, jpg, webp. `images` or `videos` is required.',
    type: [String],
    example: [PNG_EXAMPLE],
  })
  @IsOptional()
  @IsArray() // element types are checked by the rules, so the error names the element: `images[2]`
  @MaxMediaChars(VD_LIMITS.videoMaxBytes, { each: true })
  images?: string[];

  @ApiPropertyOptional({
    description:
      'Only `vdq2-pro`: one video of at most 5 s; mp4, avi, mov, e.g. `["https://example.com/refs/dance.mp4"]`. Base64 with its content-type prefix is decoded and must be a readable video of that type and length (the length of a URL video is left to the upstream).',
    type: [String],
  })
  @IsOptional()
  @IsArray() // element types are checked by the rules, so the error names the element: `images[2]`
  @MaxMediaChars(VD_LIMITS.videoMaxBytes, { each: true })
  videos?: string[];

  @ApiPropertyOptional({
    description: 'Voice ID; the system recommends one when empty; no effect on q3 models.',
    example: 'voice_01',
  })
  @IsOptional()
  @IsString()
  @MaxChars(TEXT_LIMITS.id)
  voice_id?: string;

  @ApiPropertyOptional({ description: 'ID of an existing subject from the create-subject API.', example: 'subj_123' })
  @IsOptional()
  @IsString()
  @MaxChars(TEXT_LIMITS.id)
  server_id?: string;
}

/** Fields both modes share, with the same meaning in each. */
export abstract class VdCreateCommonDto {
  @ApiProperty({ description: 'A vd model.', enum: VD_MODEL_NAMES, example: 'vdq3' })
  @IsString()
  model: string;

  @ApiProperty({
    description: 'Prompt; at most 5000 characters in subject mode, 2000 in non-subject mode.',
    example: '@cat chases a ball across the lawn',
  })
  @IsString()
  @IsNotEmpty()
  prompt: string;

  @ApiPropertyOptional({
    description: 'Joint audio-video output. Default and support depend on model and mode.',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  audio?: boolean;

  @ApiPropertyOptional({ description: 'Seconds. Default and range depend on the model.', example: 5 })
  @IsOptional()
  @IsInt()
  duration?: number;

  @ApiPropertyOptional({
    description: 'Random seed; random (1..2147483647) when absent or 0. The creation response shows the value used.',
    example: 42,
  })
  @IsOptional()
  @IsInt()
  @Min(VD_LIMITS.seed.min)
  @Max(VD_LIMITS.seed.max)
  seed?: number;

  @ApiPropertyOptional({ description: 'Default `16:9`; allowed values depend on model and mode.', example: '16:9' })
  @IsOptional()
  @IsString()
  @MaxChars(TEXT_LIMITS.word)
  aspect_ratio?: string;

  @ApiPropertyOptional({ description: 'Allowed values and default depend on the model.', example: '720p' })
  @IsOptional()
  @IsString()
  @MaxChars(TEXT_LIMITS.word)
  resolution?: string;

  @ApiPropertyOptional({
    description: 'Default `auto`; no effect on q2 and q3 models.',
    enum: VD_LIMITS.movementAmplitudes,
    example: 'auto',
  })
  @IsOptional()
  @IsString()
  @IsIn(VD_LIMITS.movementAmplitudes as string[])
  movement_amplitude?: string;

  @ApiPropertyOptional({
    description: 'Off-peak mode; default false. Support depends on series and audio.',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  off_peak?: boolean;

  @ApiPropertyOptional({ description: 'Add a watermark; default false.', example: false })
  @IsOptional()
  @IsBoolean()
  watermark?: boolean;

  @ApiPropertyOptional({
    description: '1 top-left, 2 top-right, 3 bottom-right (default), 4 bottom-left.',
    minimum: 1,
    maximum: 4,
    example: 3,
  })
  @IsOptional()
  @IsInt()
  @Min(VD_LIMITS.wmPosition.min)
  @Max(VD_LIMITS.wmPosition.max)
  wm_position?: number;

  @ApiPropertyOptional({ description: 'Custom watermark image URL.', example: 'https://example.com/brand/logo.png' })
  @IsOptional()
  @IsString()
  @IsHttpUrl()
  @MaxUrl()
  wm_url?: string;

  @ApiPropertyOptional({
    description: 'Pass-through, at most 1048576 characters.',
    maxLength: VD_LIMITS.payloadMaxChars,
    example: 'order-7781',
  })
  @IsOptional()
  @IsString()
  @MaxChars(VD_LIMITS.payloadMaxChars)
  payload?: string;

  @ApiPropertyOptional({
    description: 'Pass-through metadata, a JSON-formatted string.',
    example: '{"campaign":"spring"}',
  })
  @IsOptional()
  @IsString()
  @MaxChars(TEXT_LIMITS.metadata)
  @IsJsonText()
  meta_data?: string;

  @ApiPropertyOptional({
    description: 'http(s) address the gateway POSTs the task result to.',
    example: 'https://example.com/hooks/vd',
  })
  @IsOptional()
  @IsString()
  @IsHttpUrl()
  @MaxUrl()
  callback_url?: string;
}

/** Mode 1: the body carries `subjects`. */
export class VdSubjectModeRequestDto extends VdCreateCommonDto {
  @ApiProperty({
    description: 'Subjects: at most 7 image subjects; `vdq2-pro`: at most 4 image subjects plus 2 video subjects.',
    type: [VdSubjectDto],
  })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => VdSubjectDto)
  subjects: VdSubjectDto[];

  @ApiPropertyOptional({ description: 'Use the smart subject library; default false.', example: false })
  @IsOptional()
  @IsBoolean()
  auto_subjects?: boolean;

  @ApiPropertyOptional({
    description: 'Effective when `audio` is true; default `all`.',
    enum: VD_LIMITS.audioTypes,
    example: 'all',
  })
  @IsOptional()
  @IsString()
  @IsIn(VD_LIMITS.audioTypes as string[])
  audio_type?: string;
}

/** Mode 2: the body carries `images` (and, for `vdq2-pro`, optionally `videos`). */
export class VdNonSubjectModeRequestDto extends VdCreateCommonDto {
  @ApiProperty({
    description:
      '1 to 7 images (1 to 4 with `vdq2-pro` video input): URL or Base64 with its content-type prefix; png, jpeg, jpg, webp; at least 128x128.',
    type: [String],
    example: [PNG_EXAMPLE],
  })
  @IsArray() // element types are checked by the rules, so the error names the element: `images[2]`
  @MaxMediaChars(VD_LIMITS.videoMaxBytes, { each: true })
  images: string[];

  @ApiPropertyOptional({
    description:
      'Only `vdq2-pro`: one video of at most 8 s or two of at most 5 s each; mp4, avi, mov; at most 100M. Base64 with its content-type prefix is decoded and must be a readable video of that type and length (the length of a URL video is left to the upstream).',
    type: [String],
    example: ['https://example.com/refs/walk.mp4'],
  })
  @IsOptional()
  @IsArray() // element types are checked by the rules, so the error names the element: `images[2]`
  @MaxMediaChars(VD_LIMITS.videoMaxBytes, { each: true })
  videos?: string[];

  @ApiPropertyOptional({
    description: 'Background music; default false. No effect on q3, nor on q2 at 9 or 10 s.',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  bgm?: boolean;
}

/** The creation response (the vd task with the values that will be used), for OpenAPI. */
export class VdTaskCreationResponseDto {
  @ApiProperty({ example: 'task_01hx2v5k8m3q4r5s6t7u8v9w0x' }) task_id: string;
  @ApiProperty({ enum: ['created', 'queueing', 'processing', 'success', 'failed'], example: 'created' }) state: string;
  @ApiProperty({ example: 'vdq3' }) model: string;
  @ApiProperty({ example: '@cat chases a ball across the lawn' }) prompt: string;
  @ApiProperty({
    type: [String],
    description:
      'Reference images used (subject mode: every subject image, in subject order). Base64 images appear as `[base64 <type> <n> bytes]`.',
    example: [PNG_EXAMPLE, '[base64 image/png 2048 bytes]'],
  })
  images: string[];
  @ApiPropertyOptional({
    type: [String],
    description: 'Only non-subject calls with `vdq2-pro`.',
    example: ['https://example.com/refs/walk.mp4'],
  })
  videos?: string[];
  @ApiProperty({ example: 5 }) duration: number;
  @ApiProperty({ example: 1234567 }) seed: number;
  @ApiProperty({ example: '16:9' }) aspect_ratio: string;
  @ApiProperty({ example: '720p' }) resolution: string;
  @ApiProperty({ description: 'Whether background music is actually added.', example: false }) bgm: boolean;
  @ApiProperty({ description: 'Whether joint audio-video output is on.', example: true }) audio: boolean;
  @ApiProperty({ example: 'all' }) audio_type: string;
  @ApiProperty({ example: 'auto' }) movement_amplitude: string;
  @ApiProperty({ example: '' }) payload: string;
  @ApiProperty({ example: false }) off_peak: boolean;
  @ApiProperty({ description: 'Native credit information; the charge follows the usage log.', example: 0 })
  credits: number;
  @ApiProperty({ example: false }) watermark: boolean;
  @ApiProperty({ example: '2026-01-01T00:00:00.000Z' }) created_at: string;
}
