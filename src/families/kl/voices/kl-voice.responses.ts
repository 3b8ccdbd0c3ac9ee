import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Typed answers of family A voices, for `/docs`; the presenters build objects of these shapes. */
class KlEnvelope {
  @ApiProperty({ example: 0 }) code: number;
  @ApiProperty({ example: 'SUCCEED' }) message: string;
  @ApiProperty() request_id: string;
}

export class KlTaskInfo {
  @ApiPropertyOptional() external_task_id?: string;
}

export class KlVoiceCreatedData {
  @ApiProperty({ example: 'task_01jd4z5q7v3m0r9s8t6w2x1y0z' }) task_id: string;
  @ApiProperty({ enum: ['submitted', 'processing', 'succeed', 'failed'] }) task_status: string;
  @ApiProperty({ type: KlTaskInfo }) task_info: KlTaskInfo;
  @ApiProperty({ description: 'Unix milliseconds' }) created_at: number;
  @ApiProperty({ description: 'Unix milliseconds' }) updated_at: number;
}

export class KlVoiceCreatedResponse extends KlEnvelope {
  @ApiProperty({ type: KlVoiceCreatedData }) data: KlVoiceCreatedData;
}

export class KlVoice {
  @ApiProperty({ example: 'voice_01jd4z5q7v3m0r9s8t6w2x1y0z_0', description: 'The gateway’s voice ID' }) voice_id: string;
  @ApiProperty() voice_name: string;
  @ApiProperty() trial_url: string;
  @ApiProperty({ example: '2706130531', description: 'Custom voices: a stable number for the owning gateway account (never the upstream creator ID). Presets: `kl`.' })
  owned_by: string;
  @ApiPropertyOptional({ description: 'Custom voices: true once the owner deleted it (it stays listed).' }) deleted?: boolean;
}

export class KlVoiceResult {
  @ApiProperty({ type: [KlVoice] }) voices: KlVoice[];
}

export class KlVoiceTaskData extends KlVoiceCreatedData {
  @ApiProperty() task_status_msg: string;
  @ApiProperty({ type: KlVoiceResult }) task_result: KlVoiceResult;
  @ApiProperty({ description: 'Native credit figure, information only' }) final_unit_deduction: string;
}

export class KlVoiceTaskResponse extends KlEnvelope {
  @ApiProperty({ type: KlVoiceTaskData }) data: KlVoiceTaskData;
}

export class KlVoiceListItem {
  @ApiProperty() task_id: string;
  @ApiProperty({ example: 'kl' }) platform: string;
  @ApiProperty({ example: 'custom_voices' }) action: string;
  @ApiProperty({ enum: ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN'] }) status: string;
  @ApiProperty({ example: '100%' }) progress: string;
  @ApiProperty() fail_reason: string;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
  @ApiProperty({ type: KlVoiceTaskResponse }) data: KlVoiceTaskResponse;
}

export class KlVoiceListData {
  @ApiProperty({ type: [KlVoiceListItem] }) items: KlVoiceListItem[];
  @ApiProperty() total: number;
  @ApiProperty() page_num: number;
  @ApiProperty() page_size: number;
}

export class KlVoiceListResponse extends KlEnvelope {
  @ApiProperty({ type: KlVoiceListData }) data: KlVoiceListData;
}

export class KlPresetItemDoc {
  @ApiProperty() task_id: string;
  @ApiProperty({ example: 'succeed' }) task_status: string;
  @ApiProperty() task_status_msg: string;
  @ApiProperty({ type: KlVoiceResult }) task_result: KlVoiceResult;
  @ApiProperty() created_at: number;
  @ApiProperty() updated_at: number;
}

export class KlPresetsResponse extends KlEnvelope {
  @ApiProperty({ type: [KlPresetItemDoc] }) data: KlPresetItemDoc[];
}

export class KlVoiceDeletedData {
  @ApiProperty({ example: 'task_01jd4z5q7v3m0r9s8t6w2x1y0z', description: 'Public ID of the delete operation (not a queryable task)' }) task_id: string;
  @ApiProperty({ example: 'succeed' }) task_status: string;
}

export class KlVoiceDeletedResponse extends KlEnvelope {
  @ApiProperty({ type: KlVoiceDeletedData }) data: KlVoiceDeletedData;
}
