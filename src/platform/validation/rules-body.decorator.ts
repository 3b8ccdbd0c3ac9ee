import { Body, PipeTransform, Query } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { validateDto } from './validate-dto';

/** Checks a request body with a family's rules; what they return is the handler's typed request. */
export class RulesPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly rules: (body: unknown) => T) {}

  transform(body: unknown): T {
    return this.rules(body);
  }
}

/**
 * The request body, checked by `rules` before the handler runs. Pipes run after the guards, so
 * the API key, the model access and the rate limit are judged before any body rule, and a bad
 * body never reaches the service.
 */
export function RulesBody<T>(rules: (body: unknown) => T): ParameterDecorator {
  return Body(new RulesPipe(rules));
}

/** The request body as an instance of `cls`, checked with the gateway's DTO rules (unknown fields refused). */
export function DtoBody<T extends object>(cls: ClassConstructor<T>): ParameterDecorator {
  return RulesBody((body) => validateDto(cls, body));
}

/** The query parameters, parsed by `rules` before the handler runs (after the guards, as for bodies). */
export function RulesQuery<T>(rules: (query: Record<string, unknown>) => T): ParameterDecorator {
  return Query(new RulesPipe((query) => rules(query as Record<string, unknown>)));
}
