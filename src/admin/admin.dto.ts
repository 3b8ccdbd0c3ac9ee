import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
// class-validator checks a property's decorators bottom-up: the type check sits last so a wrong
// type is reported as such, not as a range.
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  NotEquals,
  ValidateNested,
} from 'class-validator';
import { MAX_ACCOUNT_FUNDS } from '../core/billing/pricing/units';
import { Capability } from '../core/models/model-catalogue';
import { NotBlank, TEXT_LIMITS } from '../families/common/text-rules';
import { IsOmittable } from '../platform/validation/is-omittable';
import { IsTimeValue } from './time-param';

const MAX_AMOUNT = MAX_ACCOUNT_FUNDS;

export class CreateAccountDto {
  @ApiProperty({ example: 'Acme Studio' }) @NotBlank() @Length(1, 200) @IsString() name: string;
  @ApiPropertyOptional({ type: 'integer', example: 100000, description: 'Opening balance in price units' })
  @IsOmittable()
  @Min(0)
  @Max(MAX_AMOUNT)
  @IsInt()
  balance?: number;
  @ApiPropertyOptional({ type: 'integer', example: 600 })
  @IsOmittable()
  @Min(1)
  @Max(1000000)
  @IsInt()
  rate_limit_rpm?: number;
  @ApiPropertyOptional({ type: 'integer', example: 20 })
  @IsOmittable()
  @Min(1)
  @Max(100000)
  @IsInt()
  max_concurrent_tasks?: number;
}

export class UpdateAccountDto {
  @ApiPropertyOptional() @IsOmittable() @NotBlank() @Length(1, 200) @IsString() name?: string;
  @ApiPropertyOptional() @IsOmittable() @IsBoolean() disabled?: boolean;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @Min(1)
  @Max(1000000)
  @IsInt()
  rate_limit_rpm?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @Min(1)
  @Max(100000)
  @IsInt()
  max_concurrent_tasks?: number | null;
}

export class CreateKeyDto {
  @ApiPropertyOptional({ example: 'ci' }) @IsOmittable() @NotBlank() @Length(1, 200) @IsString() name?: string;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string', format: 'date-time' }, { type: 'integer' }],
    example: '2027-01-01T00:00:00Z',
    nullable: true,
    description: 'ISO 8601 time or Unix seconds; null or left out: the key never expires',
  })
  @IsOptional()
  @IsTimeValue()
  expires_at?: string | number;
  @ApiPropertyOptional({
    example: ['wx2.7-r2v'],
    nullable: true,
    description: 'Restrict the key to these models; null or left out: every model the account has',
  })
  @IsOptional()
  @ArrayUnique(undefined, { message: '$property must not name a model twice' })
  @IsArray()
  @ArrayMaxSize(100)
  @MaxLength(TEXT_LIMITS.model, { each: true })
  @IsString({ each: true })
  models?: string[];
}

export class GrantDto {
  @ApiProperty({ example: 'vdq3' }) @MaxLength(TEXT_LIMITS.model) @IsString() model: string;
  /** Checked against the model's own capabilities by the service (400 naming the entry). */
  @ApiPropertyOptional({
    example: ['reference2video'],
    isArray: true,
    type: String,
    nullable: true,
    description: "null or left out: all of the model's capabilities; []: none (the model is enabled for no route)",
  })
  @IsOptional()
  @IsArray()
  @MaxLength(TEXT_LIMITS.word, { each: true })
  @IsString({ each: true })
  capabilities?: Capability[];
}

export class ReplaceGrantsDto {
  @ApiProperty({ type: [GrantDto] })
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => GrantDto)
  models: GrantDto[];
}

export class BalanceAdjustmentDto {
  @ApiProperty({
    type: 'integer',
    example: 50000,
    description: 'Credit (positive) or debit (negative), in price units',
  })
  @NotEquals(0)
  @Min(-MAX_AMOUNT)
  @Max(MAX_AMOUNT)
  @IsInt()
  delta: number;
  @ApiProperty({ example: 'top-up invoice 2026-11' }) @Length(1, 500) @IsString() reason: string;
}
