import { ApiProperty } from '@nestjs/swagger';
import { KlEnvelope } from '../tasks/kl-task.responses';

/** Typed answers of kl editing sessions, for `/docs`; the service builds objects of these shapes. */
export class KlSessionData {
  @ApiProperty({ example: 0, description: 'Recognition code; non-zero means the video was not recognised' })
  status: number;
  @ApiProperty({ example: 'sess_01jd4z5q7v3m0r9s8t6w2x1y0z', description: 'The gateway’s session ID, valid 24 hours' })
  session_id: string;
  @ApiProperty({ example: '0', description: 'Native credit figure, information only' }) final_unit_deduction: string;
}

export class KlSessionInitData extends KlSessionData {
  @ApiProperty({ example: 30 }) fps: number;
  @ApiProperty({ example: 5, description: 'Seconds' }) original_duration: number;
  @ApiProperty({ example: 1280 }) width: number;
  @ApiProperty({ example: 720 }) height: number;
  @ApiProperty({ example: 150 }) total_frame: number;
  @ApiProperty() normalized_video: string;
}

export class KlSessionInitResponse extends KlEnvelope {
  @ApiProperty({ type: KlSessionInitData }) data: KlSessionInitData;
}

export class KlRleMask {
  @ApiProperty({ type: [Number], example: [720, 1280] }) size: number[];
  @ApiProperty() counts: string;
}

export class KlPngMask {
  @ApiProperty({ type: [Number], example: [720, 1280] }) size: number[];
  @ApiProperty() base64: string;
}

export class KlMaskedObject {
  @ApiProperty({ example: 1 }) object_id: number;
  @ApiProperty({ type: KlRleMask }) rle_mask: KlRleMask;
  @ApiProperty({ type: KlPngMask }) png_mask: KlPngMask;
}

export class KlMaskResult {
  @ApiProperty({ example: 0 }) frame_index: number;
  @ApiProperty({ type: [KlMaskedObject] }) rle_mask_list: KlMaskedObject[];
}

export class KlSelectionData extends KlSessionData {
  @ApiProperty({ type: KlMaskResult }) res: KlMaskResult;
}

/** add-selection and delete-selection. */
export class KlSelectionResponse extends KlEnvelope {
  @ApiProperty({ type: KlSelectionData }) data: KlSelectionData;
}

export class KlSessionClearedResponse extends KlEnvelope {
  @ApiProperty({ type: KlSessionData }) data: KlSessionData;
}

export class KlPreviewResult {
  @ApiProperty({ description: 'Video with the mask' }) video: string;
  @ApiProperty() video_cover: string;
  @ApiProperty({ description: 'Per-frame mask results' }) tracking_output: string;
}

export class KlPreviewData extends KlSessionData {
  @ApiProperty({ type: KlPreviewResult }) res: KlPreviewResult;
}

export class KlPreviewResponse extends KlEnvelope {
  @ApiProperty({ type: KlPreviewData }) data: KlPreviewData;
}
