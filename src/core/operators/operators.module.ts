import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { OperatorDirectory } from './operator-directory';
import { OperatorEntity } from './operator.entity';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';

/** The operators: who they are (token -> operator, cached) and their management. */
@Module({
  imports: [TypeOrmModule.forFeature([OperatorEntity]), AccountsModule, AuditModule],
  providers: [OperatorsRepository, OperatorDirectory, OperatorsService],
  exports: [OperatorDirectory, OperatorsService],
})
export class OperatorsModule {}
