import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, ValidateNested } from 'class-validator';
import { INHERITED_MEMBER_KEYS } from '../../../test/fixtures/body-keys';
import { GatewayError } from '../errors';
import { validateDto } from './validate-dto';

class Media {
  @IsString() url: string;
}
class Input {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Media) media: Media[];
}
class Body {
  @ValidateNested() @Type(() => Input) input: Input;
  @IsOptional() @IsInt() @Max(10) duration?: number;
}

function errorOf(body: unknown): GatewayError {
  try {
    validateDto(Body, body);
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error('expected a validation error');
}

describe('validateDto', () => {
  it('names nested array fields by their path', () => {
    const err = errorOf({ input: { media: [{ url: 'a' }, { url: 'b' }, { url: 3 }] } });
    expect(err.status).toBe(400);
    expect(err.param).toBe('input.media[2].url');
    expect(err.message).toContain('input.media[2].url');
  });

  it('reports a wrong type as a wrong type, whatever order the decorators were written in', () => {
    // `@IsInt() @Max(10)`: class-validator registers Max first.
    expect(errorOf({ input: { media: [] }, duration: 'abc' })).toMatchObject({
      param: 'duration',
      message: 'duration must be an integer number',
    });
    expect(errorOf({ input: { media: [] }, duration: 11 }).message).toBe('duration must not be greater than 10');
  });

  it('reports an absent field as required, not by the first rule it fails', () => {
    expect(errorOf({ input: {} })).toMatchObject({ param: 'input.media', message: 'input.media is required.' });
    expect(errorOf({ input: { media: [{}] } })).toMatchObject({
      param: 'input.media[0].url',
      message: 'input.media[0].url is required.',
    });
    expect(errorOf({ input: { media: [{ url: null }] } }).message).toBe('input.media[0].url must be a string');
  });

  it('rejects unknown fields, also nested ones', () => {
    expect(errorOf({ input: { media: [] }, extra: 1 }).param).toBe('extra');
    expect(errorOf({ input: { media: [{ url: 'a', foo: 1 }] } }).param).toBe('input.media[0].foo');
  });

  it('rejects prototype-touching keys as unknown fields instead of dropping them', () => {
    expect(errorOf(JSON.parse('{"input":{"media":[]},"__proto__":{"x":1}}')).param).toBe('__proto__');
    expect(errorOf(JSON.parse('{"input":{"media":[{"url":"a","constructor":1}]}}')).param).toBe(
      'input.media[0].constructor',
    );
  });

  it('rejects keys named after members every object inherits, at any depth', () => {
    for (const key of INHERITED_MEMBER_KEYS) {
      expect(errorOf({ input: { media: [] }, [key]: 1 })).toMatchObject({
        param: key,
        message: `Unknown field '${key}'.`,
      });
      expect(errorOf({ input: { media: [], [key]: 'x' } }).param).toBe(`input.${key}`);
      expect(errorOf({ input: { media: [{ url: 'a', [key]: {} }] } }).param).toBe(`input.media[0].${key}`);
    }
  });

  it('rejects a body that is not an object', () => {
    expect(errorOf([1, 2]).param).toBeNull();
    expect(errorOf('text').code).toBe('invalid_request');
  });

  it('returns the typed instance when valid', () => {
    const ok = validateDto(Body, { input: { media: [{ url: 'x' }] }, duration: 10 });
    expect(ok.input.media[0]).toBeInstanceOf(Media);
    expect(errorOf({ input: { media: [] }, duration: 11 }).param).toBe('duration');
  });
});
