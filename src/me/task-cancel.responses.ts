import { ApiProperty } from '@nestjs/swagger';

/** What a key holder's cancel did, whatever the task's family. */
export class TaskCancelResponse {
  @ApiProperty({ example: 'task_01jd4x8q2m7c5v9b3n6k0t1r2s' }) task_id: string;
  @ApiProperty({ enum: ['cancelled'] }) status: 'cancelled';
  @ApiProperty({ description: 'True when the task had been cancelled before: this call changed nothing' })
  already_cancelled: boolean;
  @ApiProperty({ example: 'wx2.7-r2v' }) model: string;
  @ApiProperty({ description: 'Nothing is charged for a cancelled task', example: 0 }) charged: number;
  @ApiProperty({ description: 'The held estimate given back to the balance, in price units' }) released: number;
  @ApiProperty({ example: '2026-11-28T08:15:00.000Z' }) cancelled_at: string;
}
