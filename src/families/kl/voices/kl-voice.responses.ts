import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { KlEnvelope, KlListItemBase, KlPageFields, KlTaskCreatedData } from '../tasks/kl-task.responses';

/** Typed answers of kl voices, for `/docs`; the presenters build objects of these shapes. */
export class KlVoiceCreatedData extends KlTaskCreatedData {}

export class KlVoiceCreatedResponse extends KlEnvelope {
  @ApiProperty({ type: KlVoiceCreatedData }) data: KlVoiceCreatedData;
}

export class KlVoice {
  @ApiProperty({ example: 'voice_01jd4z5q7v3m0r9s8t6w2x1y0z_0', description: 'The gateway’s voice ID' })
  voice_id: string;
  @ApiProperty() voice_name: string;
  @ApiProperty({
    description:
      'Trial audio at a gateway URL (signed, expiring like other result URLs): a custom voice’s kept copy; a preset’s streamed from the upstream at a link the gateway renews, so it outlives the upstream’s 10-minute link.',
  })
  trial_url: string;
  @ApiProperty({
    example: '2706130531',
    description:
      'Custom voices: a stable number for the owning gateway account (never the upstream creator ID). Presets: `kl`.',
  })
  owned_by: string;
  @ApiPropertyOptional({ description: 'Custom voices: true once the owner deleted it (it stays listed).' })
  deleted?: boolean;
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

export class KlVoiceListItem extends KlListItemBase {
  @ApiProperty({ type: KlVoiceTaskResponse }) data: KlVoiceTaskResponse;
}

export class KlVoiceListData extends KlPageFields {
  @ApiProperty({ type: [KlVoiceListItem] }) items: KlVoiceListItem[];
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
  @ApiProperty({
    example: 'task_01jd4z5q7v3m0r9s8t6w2x1y0z',
    description: 'Public ID of the delete operation (not a queryable task)',
  })
  task_id: string;
  @ApiProperty({ example: 'succeed' }) task_status: string;
}

export class KlVoiceDeletedResponse extends KlEnvelope {
  @ApiProperty({ type: KlVoiceDeletedData }) data: KlVoiceDeletedData;
}
