/**
 * Shapes of the kl voice requests (create, delete). Types, lengths and unknown fields
 * through `validateDto`; the cross-field rules live in `kl-voice.rules.ts`. `model_name` and `model`
 * are accepted because kl's model rule reads them on every create or manage POST.
 * Decorators run bottom-up and the first failure is reported, so the type check is written last.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { MaxChars, MaxUrl, MaxUtf16Units, NotBlank, TEXT_LIMITS } from '../../common/text-rules';
import { KlModelFieldsDto } from '../kl-model-selection';

export const KL_VOICE_NAME_MAX = 20;
export const KL_VOICE_EXTENSIONS = ['mp3', 'wav', 'mp4', 'mov'] as const;

export class KlCreateVoiceDto extends KlModelFieldsDto {
  @ApiProperty({
    example: 'Narrator',
    description: `Voice name, at most ${KL_VOICE_NAME_MAX} characters counted as the upstream counts them, in UTF-16 code units: a Latin or Chinese character counts 1, an emoji 2 or more.`,
  })
  @MaxUtf16Units(KL_VOICE_NAME_MAX)
  @NotBlank()
  @IsString()
  voice_name: string;

  @ApiPropertyOptional({
    example: 'https://example.com/voice.mp3',
    description:
      'http(s) URL of the voice file (.mp3, .wav, .mp4, .mov; 5 to 30 s, one clean voice). Exactly one of voice_url and video_id.',
  })
  @IsOptional()
  @NotBlank()
  @MaxUrl()
  @IsString()
  voice_url?: string;

  @ApiPropertyOptional({
    description:
      'A video this account produced through the gateway (an editing task result, e.g. `video_01jd4z5q7v3m0r9s8t6w2x1y0z_0`). Exactly one of voice_url and video_id.',
  })
  @IsOptional()
  @NotBlank()
  @MaxLength(TEXT_LIMITS.id)
  @IsString()
  video_id?: string;

  @ApiPropertyOptional({
    description: 'Delivered by the gateway (signed, retried) with the query answer as body.',
    maxLength: TEXT_LIMITS.url,
  })
  @IsOptional()
  @MaxUrl()
  @IsString()
  callback_url?: string;

  @ApiPropertyOptional({ description: 'Caller-defined ID, unique per account.', maxLength: TEXT_LIMITS.id })
  @IsOptional()
  @MaxLength(TEXT_LIMITS.id)
  @NotBlank()
  @IsString()
  external_task_id?: string;
}

export class KlDeleteVoiceDto extends KlModelFieldsDto {
  @ApiProperty({
    example: 'voice_01jd4z5q7v3m0r9s8t6w2x1y0z_0',
    description: 'A custom voice of this account (its gateway voice ID).',
  })
  @MaxChars(TEXT_LIMITS.id)
  @NotBlank()
  @IsString()
  voice_id: string;
}
