import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { IsString } from 'class-validator';
import { GatewayError } from '../errors';
import { GatewayValidationPipe } from './gateway-validation.pipe';

class NameDto {
  @IsString() name: string;
}

describe('GatewayValidationPipe', () => {
  const pipe = new GatewayValidationPipe({ whitelist: true, forbidNonWhitelisted: true });

  it('hands back at once what ValidationPipe would not validate', () => {
    const value = { anything: 1 };
    const untyped: ArgumentMetadata[] = [
      { type: 'custom', metatype: NameDto },
      { type: 'body', metatype: Object },
      { type: 'param', metatype: String, data: 'id' },
      { type: 'query', metatype: undefined },
    ];
    for (const metadata of untyped) expect(pipe.transform(value, metadata)).toBe(value);
  });

  it('validates DTO classes as ValidationPipe does', async () => {
    const metadata: ArgumentMetadata = { type: 'body', metatype: NameDto };
    await expect(pipe.transform({ name: 'a' }, metadata)).resolves.toEqual({ name: 'a' });
    await expect(pipe.transform({ name: 1 }, metadata)).rejects.toBeInstanceOf(BadRequestException);
    await expect(pipe.transform({ name: 'a', extra: 1 }, metadata)).rejects.toBeInstanceOf(BadRequestException);
  });

  it('refuses a DTO body that is not a JSON object, null included', () => {
    const metadata: ArgumentMetadata = { type: 'body', metatype: NameDto };
    for (const body of [null, [], [{ name: 'a' }], 1, 'a', true]) {
      expect(() => pipe.transform(body, metadata)).toThrow(GatewayError);
      expect(() => pipe.transform(body, metadata)).toThrow('The request body must be a JSON object.');
    }
  });

  it('refuses prototype keys in a DTO body as unknown fields, nested ones too', () => {
    const metadata: ArgumentMetadata = { type: 'body', metatype: NameDto };
    expect(() => pipe.transform(JSON.parse('{"name":"a","constructor":1}'), metadata)).toThrow(
      "Unknown field 'constructor'.",
    );
    expect(() => pipe.transform(JSON.parse('{"name":{"__proto__":{"x":1}}}'), metadata)).toThrow(
      "Unknown field 'name.__proto__'.",
    );
  });
});
