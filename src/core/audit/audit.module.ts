import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditChainHeadEntity } from './audit-chain-head.entity';
import { AuditEntryEntity } from './audit-entry.entity';
import { AuditRepository } from './audit.repository';
import { AuditTrail } from './audit.service';

/** The audit trail, for every module whose changes it records and for the admin API's reads. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntryEntity, AuditChainHeadEntity])],
  providers: [AuditRepository, AuditTrail],
  exports: [AuditTrail],
})
export class AuditModule {}
