import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Typed answers of ax, for `/docs`; presenters build objects of these shapes. */
export class AxCreatedOutput {
  @ApiProperty({ example: 'task_01JD4Z5Q7V3M0R9S8T6W2X1Y0Z' }) task_id: string;
  @ApiProperty({ example: 'PENDING' }) task_status: string;
}

export class AxCreatedResponse {
  @ApiProperty() request_id: string;
  @ApiProperty({ type: AxCreatedOutput }) output: AxCreatedOutput;
}

export class AxTaskOutput {
  @ApiProperty() task_id: string;
  @ApiProperty({ enum: ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN'] }) task_status: string;
  @ApiPropertyOptional({ example: '2026-11-23 14:00:00.000' }) submit_time?: string;
  @ApiPropertyOptional() scheduled_time?: string;
  @ApiPropertyOptional() end_time?: string;
  @ApiPropertyOptional() video_url?: string;
  @ApiPropertyOptional({ description: 'Failure code, when failed' }) code?: string;
  @ApiPropertyOptional({ description: 'Failure reason, when failed' }) message?: string;
}

export class AxTaskResponse {
  @ApiProperty() request_id: string;
  @ApiProperty({ type: AxTaskOutput }) output: AxTaskOutput;
  @ApiPropertyOptional({
    description: 'Native usage, informational only; the charge follows the usage log.',
    type: Object,
  })
  usage?: Record<string, unknown>;
}
