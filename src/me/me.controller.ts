import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, CLIENT_ROUTE_ERRORS } from '../platform/http/openapi/error-responses';
import { ClientRoute } from '../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal } from '../core/accounts/guards/request-principal.decorator';
import { Principal } from '../core/accounts/principal';
import { MeResponse } from './me.responses';
import { MeService } from './me.service';

@ApiTags('gateway')
@ApiErrorResponses(null, CLIENT_ROUTE_ERRORS)
@ClientRoute()
@Controller('gateway/v1')
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get('me')
  @ApiOperation({
    summary: "The calling key's account: balance, held, models it may use, rate limit, usage this month",
  })
  @ApiOkResponse({ type: MeResponse })
  describe(@CurrentPrincipal() principal: Principal): Promise<MeResponse> {
    return this.me.describe(principal);
  }
}
