import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { OperatorDirectory } from './operator-directory';
import { OperatorEntity } from './operator.entity';
import { OperatorSessionEntity } from './operator-session.entity';
import { OperatorSessions } from './operator-sessions.service';
import { OperatorSessionsRepository } from './operator-sessions.repository';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';

/** The operators: who they are (token -> operator, cached), their management, and console sign-ins. */
@Module({
  imports: [TypeOrmModule.forFeature([OperatorEntity, OperatorSessionEntity]), AccountsModule, AuditModule],
  providers: [OperatorsRepository, OperatorDirectory, OperatorsService, OperatorSessionsRepository, OperatorSessions],
  exports: [OperatorDirectory, OperatorsService, OperatorSessions],
})
export class OperatorsModule {}
