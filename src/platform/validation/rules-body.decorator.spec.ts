import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { IsString } from 'class-validator';
import { GatewayError } from '../errors';
import { DtoBody, RulesBody, RulesPipe, RulesQuery } from './rules-body.decorator';

class NameDto {
  @IsString() name: string;
}

const upper = (body: unknown): string => {
  if (typeof body !== 'string') throw GatewayError.invalid('A string, please.', 'body');
  return body.toUpperCase();
};

class Handlers {
  create(@RulesBody(upper) _text: string, @DtoBody(NameDto) _dto: NameDto): void {}
  list(@RulesQuery((q) => Number(q.page)) _page: number): void {}
}

/** The pipes Nest will run on each parameter of `method`, by parameter type. */
function pipesOf(method: string): { type: number; pipes: RulesPipe<unknown>[] }[] {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Handlers, method) as Record<
    string,
    { index: number; pipes: RulesPipe<unknown>[] }
  >;
  return Object.entries(args)
    .sort(([, a], [, b]) => a.index - b.index)
    .map(([key, arg]) => ({ type: Number(key.split(':')[0]), pipes: arg.pipes }));
}

describe('RulesBody, DtoBody, RulesQuery', () => {
  it('put a pipe running the given rules on the body or the query', () => {
    const [text, dto] = pipesOf('create');
    expect(text.type).toBe(RouteParamtypes.BODY);
    expect(text.pipes[0].transform('abc')).toBe('ABC');
    expect(dto.type).toBe(RouteParamtypes.BODY);
    expect(dto.pipes[0].transform({ name: 'n' })).toBeInstanceOf(NameDto);
    const [page] = pipesOf('list');
    expect(page.type).toBe(RouteParamtypes.QUERY);
    expect(page.pipes[0].transform({ page: '3' })).toBe(3);
  });

  it("a refused body is the rules' own error, naming the field", () => {
    const [text, dto] = pipesOf('create');
    expect(() => text.pipes[0].transform(1)).toThrow(expect.objectContaining({ status: 400, param: 'body' }));
    expect(() => dto.pipes[0].transform({ name: 'n', extra: 1 })).toThrow(
      expect.objectContaining({ status: 400, param: 'extra' }),
    );
  });
});
