/**
 * Shape of the kl editing-task body: types, enums, lengths and unknown
 * fields through `validateDto`. Rules across fields and against the session (image counts per
 * `edit_mode`, image content, `<<<image_N>>>` references, duration against the source video) live
 * in `kl-editing.rules.ts` and the service.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { MaxChars, MaxMediaChars, MaxUrl, NotBlank, TEXT_LIMITS } from '../../common/text-rules';
import { KlModelFieldsDto } from '../kl-model-selection';

export const KL_EDIT_MODES = ['addition', 'swap', 'removal'] as const;
export type KlEditMode = (typeof KL_EDIT_MODES)[number];
export const KL_MODES = ['std', 'pro'] as const;
export const KL_DURATIONS = ['5', '10', 5, 10] as const;
export const KL_PROMPT_MAX_CHARS = 2500;

export class KlImageItemDto {
  @ApiProperty({
    description:
      'Reachable http(s) URL (.jpg/.jpeg/.png) or raw Base64 without a data-URL prefix; <=10 MB, sides >=300 px, ratio 1:2.5 to 2.5:1.',
  })
  @NotBlank()
  @MaxMediaChars(10 * 1024 * 1024) // the image rule's 10 MB; the rule checks the decoded size
  @IsString()
  image: string;
}

export class KlWatermarkInfoDto {
  @ApiProperty({ example: false })
  @IsBoolean()
  enabled: boolean;
}

export class KlEditingCreateDto extends KlModelFieldsDto {
  // Documented again only for its example: this endpoint takes kl-v1-6 alone.
  @ApiPropertyOptional({ example: 'kl-v1-6', description: 'Selects the model: only kl-v1-6 here; else `model`.' })
  model_name?: string;

  @ApiProperty({ example: 'sess_01jd...' })
  @NotBlank()
  @MaxLength(64)
  @IsString()
  session_id: string;

  @ApiProperty({ enum: KL_EDIT_MODES })
  @IsIn(KL_EDIT_MODES)
  @IsString()
  edit_mode: KlEditMode;

  @ApiPropertyOptional({
    type: () => [KlImageItemDto],
    description: '1-2 for addition, exactly 1 for swap, none for removal.',
    example: [{ image: 'https://example.com/hat.png' }],
  })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => KlImageItemDto)
  @IsArray()
  image_list?: KlImageItemDto[];

  @ApiProperty({
    example: 'Using the context of <<<video_1>>>, seamlessly add the hat from <<<image_1>>>',
    maxLength: KL_PROMPT_MAX_CHARS,
  })
  @MaxChars(KL_PROMPT_MAX_CHARS)
  @NotBlank()
  @IsString()
  prompt: string;

  @ApiPropertyOptional({ maxLength: KL_PROMPT_MAX_CHARS })
  @IsOptional()
  @MaxChars(KL_PROMPT_MAX_CHARS)
  @IsString()
  negative_prompt?: string;

  @ApiPropertyOptional({ enum: KL_MODES, default: 'std' })
  @IsOptional()
  @IsIn(KL_MODES)
  @IsString()
  mode?: 'std' | 'pro';

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', enum: ['5', '10'] },
      { type: 'integer', enum: [5, 10] },
    ],
    default: '5',
  })
  @IsOptional()
  @IsIn(KL_DURATIONS, { message: 'duration must be "5" or "10" (or 5 or 10)' })
  duration?: '5' | '10' | 5 | 10;

  @ApiPropertyOptional({ type: () => KlWatermarkInfoDto })
  @IsOptional()
  @IsObject() // an object, not an array: `ValidateNested` alone takes `[]`
  @ValidateNested()
  @Type(() => KlWatermarkInfoDto)
  watermark_info?: KlWatermarkInfoDto;

  @ApiPropertyOptional({ example: 'https://example.com/hook', maxLength: TEXT_LIMITS.url })
  @IsOptional()
  @MaxUrl()
  @IsString()
  callback_url?: string;

  @ApiPropertyOptional({ maxLength: TEXT_LIMITS.id })
  @IsOptional()
  @NotBlank()
  @MaxLength(TEXT_LIMITS.id)
  @IsString()
  external_task_id?: string;
}
