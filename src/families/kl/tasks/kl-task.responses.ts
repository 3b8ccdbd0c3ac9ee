import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What every kl answer shares, for `/docs`: the common envelope and the task header fields. */
export class KlEnvelope {
  @ApiProperty({ example: 0 }) code: number;
  @ApiProperty({ example: 'SUCCEED' }) message: string;
  @ApiProperty() request_id: string;
}

export class KlTaskInfo {
  @ApiPropertyOptional() external_task_id?: string;
}

/** The creation answer's `data` (editing tasks and custom voices). */
export class KlTaskCreatedData {
  @ApiProperty({ example: 'task_01jd4z5q7v3m0r9s8t6w2x1y0z' }) task_id: string;
  @ApiProperty({ enum: ['submitted', 'processing', 'succeed', 'failed'] }) task_status: string;
  @ApiProperty({ type: KlTaskInfo }) task_info: KlTaskInfo;
  @ApiProperty({ description: 'Unix milliseconds' }) created_at: number;
  @ApiProperty({ description: 'Unix milliseconds' }) updated_at: number;
}

/** The outer fields of a kl list item; `data` is added per action. */
export class KlListItemBase {
  @ApiProperty() task_id: string;
  @ApiProperty({ example: 'kl' }) platform: string;
  @ApiProperty({ enum: ['multi_elements', 'custom_voices'] }) action: string;
  @ApiProperty({ enum: ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN'] })
  status: string;
  @ApiProperty({ example: '100%' }) progress: string;
  @ApiProperty() fail_reason: string;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}

export class KlPageFields {
  @ApiProperty() total: number;
  @ApiProperty() page_num: number;
  @ApiProperty() page_size: number;
}
