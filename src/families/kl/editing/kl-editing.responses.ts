import { ApiProperty } from '@nestjs/swagger';
import { KlEnvelope, KlListItemBase, KlPageFields, KlTaskCreatedData } from '../tasks/kl-task.responses';

/** Typed answers of kl editing tasks, for `/docs`; the presenters build objects of these shapes. */
export class KlEditingCreatedResponse extends KlEnvelope {
  @ApiProperty({ type: KlTaskCreatedData }) data: KlTaskCreatedData;
}

export class KlEditingVideo {
  @ApiProperty({
    example: 'video_01jd4z5q7v3m0r9s8t6w2x1y0z_0',
    description: 'The gateway’s video ID, usable as `video_id` of a new session',
  })
  id: string;
  @ApiProperty({ example: 'sess_01jd4z5q7v3m0r9s8t6w2x1y0z' }) session_id: string;
  @ApiProperty() url: string;
  @ApiProperty() watermark_url: string;
  @ApiProperty({ example: '5', description: 'Seconds' }) duration: string;
}

export class KlEditingResult {
  @ApiProperty({ type: [KlEditingVideo] }) videos: KlEditingVideo[];
}

export class KlWatermarkInfo {
  @ApiProperty() enabled: boolean;
}

export class KlEditingTaskData extends KlTaskCreatedData {
  @ApiProperty({ description: 'Failure reason, when failed' }) task_status_msg: string;
  @ApiProperty({ type: KlEditingResult }) task_result: KlEditingResult;
  @ApiProperty({ type: KlWatermarkInfo }) watermark_info: KlWatermarkInfo;
  @ApiProperty({ description: 'Native credit figure, information only' }) final_unit_deduction: string;
}

export class KlEditingTaskResponse extends KlEnvelope {
  @ApiProperty({ type: KlEditingTaskData }) data: KlEditingTaskData;
}

export class KlEditingListItem extends KlListItemBase {
  @ApiProperty({ type: KlEditingTaskResponse }) data: KlEditingTaskResponse;
}

export class KlEditingListData extends KlPageFields {
  @ApiProperty({ type: [KlEditingListItem] }) items: KlEditingListItem[];
}

export class KlEditingListResponse extends KlEnvelope {
  @ApiProperty({ type: KlEditingListData }) data: KlEditingListData;
}
