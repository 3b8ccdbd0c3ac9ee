import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

export class VideoErrorResponse {
  @ApiProperty({ example: 'upstream_failed' }) code: string;
  @ApiProperty({ example: 'The upstream could not render the video.' }) message: string;
}

/** The Video object, read from the gateway's task record. */
export class VideoResponse {
  @ApiProperty({ example: 'task_01jz3k5v2q8x4m7n9p0r1s2t3u' }) id: string;
  @ApiProperty({ enum: ['video'] }) object: 'video';
  @ApiProperty({ example: 'vdq3' }) model: string;
  @ApiProperty({ enum: ['queued', 'in_progress', 'completed', 'failed'] }) status: VideoStatus;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ description: 'Unix seconds.' }) created_at: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix seconds; set once completed or failed.' })
  completed_at: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds: when the kept copy of the video is removed; null until it is kept.',
  })
  expires_at: number | null;
  @ApiProperty({ type: 'string', nullable: true }) prompt: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: '5', description: 'Duration in seconds.' })
  seconds: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: '1280x720' }) size: string | null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null] }) remixed_from_video_id: null;
  @ApiPropertyOptional({ type: () => VideoErrorResponse, nullable: true }) error: VideoErrorResponse | null;
}

export class VideoListResponse {
  @ApiProperty({ enum: ['list'] }) object: 'list';
  @ApiProperty({ type: () => [VideoResponse] }) data: VideoResponse[];
  @ApiProperty({ type: 'string', nullable: true }) first_id: string | null;
  @ApiProperty({ type: 'string', nullable: true }) last_id: string | null;
  @ApiProperty() has_more: boolean;
}

export class VideoDeletedResponse {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['video.deleted'] }) object: 'video.deleted';
  @ApiProperty({ enum: [true] }) deleted: true;
}

/** A client callback for a video created through this API (signed like every callback). */
export class VideoEvent {
  @ApiProperty({ example: 'evt_01jz3k5v2q8x4m7n9p0r1s2t3u' }) id: string;
  @ApiProperty({ enum: ['event'] }) object: 'event';
  @ApiProperty({ enum: ['video.completed', 'video.failed'] }) type: 'video.completed' | 'video.failed';
  @ApiProperty() created_at: number;
  @ApiProperty({ type: () => VideoResponse }) data: VideoResponse;
}
