import { CanActivate, Controller, Get, INestApplication, Injectable, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { routeGuards } from './nest-internals';

const ran: string[] = [];

@Injectable()
class ControllerGuard implements CanActivate {
  canActivate(): boolean {
    ran.push('controller');
    return true;
  }
}

class HandlerGuard implements CanActivate {
  canActivate(): boolean {
    ran.push('handler');
    return true;
  }
}
const handlerGuard = new HandlerGuard();

@Controller()
@UseGuards(ControllerGuard)
class GuardedController {
  @Get('guarded')
  @UseGuards(handlerGuard)
  guarded() {
    return { ok: true };
  }

  @Get('plain')
  plain() {
    return { ok: true };
  }
}

class UnguardedController {
  handler() {}
}

@Module({ controllers: [GuardedController], providers: [ControllerGuard] })
class GuardedModule {}

// Contract: what the gateway relies on in the installed @nestjs/common and @nestjs/core.
describe('Nest internals', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(GuardedModule, { logger: false });
    await app.init();
  });
  afterAll(() => app.close());
  beforeEach(() => (ran.length = 0));

  it("reads a route's guards as @UseGuards was given them: the controller's, then the handler's", () => {
    expect(routeGuards(GuardedController, GuardedController.prototype.guarded)).toEqual([
      ControllerGuard,
      handlerGuard,
    ]);
    expect(routeGuards(GuardedController, GuardedController.prototype.plain)).toEqual([ControllerGuard]);
    expect(routeGuards(UnguardedController, UnguardedController.prototype.handler)).toEqual([]);
  });

  it('lists them in the order Nest runs them', async () => {
    await request(app.getHttpServer()).get('/guarded').expect(200);
    expect(ran).toEqual(['controller', 'handler']);
  });
});
