import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { AccountIdFilter } from './reads/reads.dto';
import { parseTimeParam } from './time-param';

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

/** An empty parameter (`?model=`) is the same as an absent one, as in the documented URL template. */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);
/** Digits become a number; anything else stays text so @IsInt names the parameter. */
const toInteger = ({ value }: { value: unknown }) => {
  const v = blankAsAbsent(value);
  return typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
};
/** ISO 8601 or Unix seconds become epoch ms; anything else stays text so the check fails. */
const toTime = ({ value }: { value: unknown }) => {
  const v = blankAsAbsent(value);
  return typeof v === 'string' ? (parseTimeParam(v) ?? v) : v;
};
const TIME_MESSAGE = { message: '$property must be an ISO 8601 time or Unix seconds' };

/**
 * `GET /admin/v1/usage` query; times arrive as text and leave as epoch ms. A wrong type is
 * reported as such rather than as a range error (type checks run first: `typeChecksFirst`).
 */
export class UsageQueryDto {
  @AccountIdFilter()
  account_id?: string;

  @ApiPropertyOptional({ example: 'wx2.7-r2v' })
  @Transform(({ value }) => blankAsAbsent(value))
  @IsOptional()
  @Length(1, 100)
  @IsString()
  model?: string;

  @ApiPropertyOptional({
    type: String,
    example: '2026-11-01T00:00:00Z',
    description: 'Rows created at or after this time: ISO 8601 (UTC when no zone is given) or Unix seconds.',
  })
  @Transform(toTime)
  @IsOptional()
  @IsInt(TIME_MESSAGE)
  from?: number;

  @ApiPropertyOptional({
    type: String,
    example: '1796083200',
    description: 'Rows created before this time (exclusive): ISO 8601 or Unix seconds.',
  })
  @Transform(toTime)
  @IsOptional()
  @IsInt(TIME_MESSAGE)
  to?: number;

  @ApiPropertyOptional({ type: 'integer', example: 1, default: 1, minimum: 1 })
  @Transform(toInteger)
  @IsOptional()
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    example: DEFAULT_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
  })
  @Transform(toInteger)
  @IsOptional()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  @IsInt()
  page_size?: number;

  @ApiPropertyOptional({ enum: ['json', 'csv'], example: 'csv', description: 'Same as `Accept: text/csv` when `csv`.' })
  @Transform(({ value }) => blankAsAbsent(value))
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}
