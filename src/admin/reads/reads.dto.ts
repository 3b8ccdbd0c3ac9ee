import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { parseTimeParam } from '../time-param';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;
export const TASK_STATUSES = ['submitting', 'active', 'succeeded', 'failed', 'cancelled', 'rejected'] as const;

/** An empty parameter (`?model=`) is the same as an absent one. */
export const blankAsAbsent = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
/** Digits become a number; anything else stays text so @IsInt names the parameter. */
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : blankAsAbsent({ value });
/** ISO 8601 or Unix seconds become epoch ms; anything else stays text so the check fails. */
const toTime = ({ value }: { value: unknown }) => {
  const v = blankAsAbsent({ value });
  return typeof v === 'string' ? (parseTimeParam(v) ?? v) : v;
};
const TIME_MESSAGE = { message: '$property must be an ISO 8601 time or Unix seconds' };
/**
 * An `account_id` filter: blank is absent; otherwise an account ID's shape (`acct_…`), so a name or
 * a typo is refused instead of answered with an empty list.
 */
export function AccountIdFilter(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example: 'acct_01jd4x8q2m7c5v9b3n6k0t1r2s' }),
    Transform(blankAsAbsent),
    IsOptional(),
    IsString(),
    Length(1, 64),
    Matches(/^acct_[0-9A-Za-z_-]+$/, {
      message: '$property must be an account ID (acct_…); find an account by name with GET /admin/v1/accounts?q=',
    }),
  );
}

/** Cursor paging shared by the list routes. */
export class CursorQueryDto {
  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page' })
  @Transform(blankAsAbsent)
  @IsOptional()
  @Length(1, 200)
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', default: DEFAULT_LIST_LIMIT, minimum: 1, maximum: MAX_LIST_LIMIT })
  @Transform(toInteger)
  @IsOptional()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  @IsInt()
  limit?: number;
}

export class AccountsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'An account ID (exact) or part of its name (case-insensitive)' })
  @Transform(blankAsAbsent)
  @IsOptional()
  @Length(1, 200)
  @IsString()
  q?: string;
}

export class TimeRangeQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({
    type: String,
    example: '2026-11-01T00:00:00Z',
    description: 'Created at or after (ISO 8601 or Unix seconds)',
  })
  @Transform(toTime)
  @IsOptional()
  @IsInt(TIME_MESSAGE)
  from?: number;

  @ApiPropertyOptional({ type: String, example: '2026-12-01', description: 'Created before (exclusive)' })
  @Transform(toTime)
  @IsOptional()
  @IsInt(TIME_MESSAGE)
  to?: number;
}

export class TasksQueryDto extends TimeRangeQueryDto {
  @AccountIdFilter() account_id?: string;
  @ApiPropertyOptional({ example: 'vd' })
  @Transform(blankAsAbsent)
  @IsOptional()
  @Length(1, 8)
  @IsString()
  family?: string;
  @ApiPropertyOptional() @Transform(blankAsAbsent) @IsOptional() @Length(1, 100) @IsString() model?: string;
  @ApiPropertyOptional({ enum: TASK_STATUSES, description: "The gateway's status of the task" })
  @Transform(blankAsAbsent)
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: (typeof TASK_STATUSES)[number];
  @ApiPropertyOptional() @Transform(blankAsAbsent) @IsOptional() @Length(1, 255) @IsString() external_task_id?: string;
  @ApiPropertyOptional() @Transform(blankAsAbsent) @IsOptional() @Length(1, 200) @IsString() upstream_task_id?: string;
}

export class DailyUsageQueryDto {
  @AccountIdFilter() account_id?: string;
  @ApiPropertyOptional() @Transform(blankAsAbsent) @IsOptional() @Length(1, 100) @IsString() model?: string;
  @ApiPropertyOptional({ type: String, description: 'Charged at or after (ISO 8601 or Unix seconds)' })
  @Transform(toTime)
  @IsOptional()
  @IsInt(TIME_MESSAGE)
  from?: number;
  @ApiPropertyOptional({ type: String, description: 'Charged before (exclusive)' })
  @Transform(toTime)
  @IsOptional()
  @IsInt(TIME_MESSAGE)
  to?: number;
  @ApiPropertyOptional({ enum: ['json', 'csv'] })
  @Transform(blankAsAbsent)
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}
