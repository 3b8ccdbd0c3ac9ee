import { ApiProperty } from '@nestjs/swagger';

export class VdCreation {
  @ApiProperty({ example: 'creation_01JD4Z5Q7V3M0R9S8T6W2X1Y0Z_0' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty() cover_url: string;
  @ApiProperty() watermarked_url: string;
}

/** `GET /vd/ent/v2/tasks/{id}/creations`, in the upstream's shape. */
export class VdCreationsResponse {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['created', 'queueing', 'processing', 'success', 'failed'] }) state: string;
  @ApiProperty({ description: 'Failure code when failed, else empty' }) err_code: string;
  @ApiProperty({ description: 'Native credit information; the charge follows the usage log.' }) credits: number;
  @ApiProperty() payload: string;
  @ApiProperty({ type: [VdCreation] }) creations: VdCreation[];
}
