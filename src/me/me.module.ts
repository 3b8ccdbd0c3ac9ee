import { Module } from '@nestjs/common';
import { AccountsModule } from '../core/accounts/accounts.module';
import { MeController } from './me.controller';
import { MeRepository } from './me.repository';
import { MeService } from './me.service';

/** `GET /gateway/v1/me`: self-service for key holders, under the gateway's own prefix. */
@Module({
  imports: [AccountsModule],
  controllers: [MeController],
  providers: [MeRepository, MeService],
})
export class MeModule {}
