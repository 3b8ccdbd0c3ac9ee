import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { IsString } from 'class-validator';
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
});
