import { IsOptional, IsString } from 'class-validator';
import { IsOmittable } from './is-omittable';
import { validateDto } from './validate-dto';

class Omittable {
  @IsOmittable() @IsString() name?: string;
}

class Optional {
  @IsOptional() @IsString() name?: string;
}

describe('IsOmittable', () => {
  it('lets the field be left out, and checks any value sent', () => {
    expect(validateDto(Omittable, {})).toEqual({});
    expect(validateDto(Omittable, { name: 'a' })).toEqual({ name: 'a' });
    expect(() => validateDto(Omittable, { name: 1 })).toThrow('name must be a string');
  });

  it('refuses null, which IsOptional lets through unchecked', () => {
    expect(() => validateDto(Omittable, { name: null })).toThrow('name must be a string');
    expect(validateDto(Optional, { name: null })).toEqual({ name: null });
  });
});
