import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { Capability } from '../../models/model-catalogue';
import { ApiKeyGuard } from './api-key.guard';
import { ModelAccessGuard, ModelSelection, RequiresCapability } from './model-access.guard';
import { RateLimitGuard } from './rate-limit.guard';

/** Every client route: who (API key), how often (rate limit), and, where given, which model for what. */
export function ClientRoute(requirement?: { capability: Capability; selection: ModelSelection }) {
  const decorators = [ApiBearerAuth(), UseGuards(ApiKeyGuard, RateLimitGuard, ModelAccessGuard)];
  if (requirement) decorators.push(RequiresCapability(requirement.capability, requirement.selection));
  return applyDecorators(...decorators);
}
