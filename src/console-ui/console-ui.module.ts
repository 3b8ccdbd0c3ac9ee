import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';

/** `/console`: the operator console's static files, served by the gateway itself (works offline). */
@Module({ controllers: [ConsoleController] })
export class ConsoleUiModule {}
