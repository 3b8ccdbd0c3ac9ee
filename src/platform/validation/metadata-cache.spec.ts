import {
  IsArray,
  IsInt,
  IsString,
  Max,
  MaxLength,
  MetadataStorage,
  Min,
  getMetadataStorage,
  validateSync,
} from 'class-validator';
import { installValidationMetadataCache } from './metadata-cache';

class Base {
  @IsString() name: string;
}
class Child extends Base {
  @IsInt() size: number;
}

const errorsOf = (value: object): string[] =>
  validateSync(value, { forbidUnknownValues: true })
    .map((e) => e.property)
    .sort();

describe('validation metadata cache', () => {
  beforeAll(() => installValidationMetadataCache());

  it('gives the same rules as class-validator, inherited ones included', () => {
    const global = getMetadataStorage();
    // The uncached answer, from the same rules.
    const uncached = MetadataStorage.prototype.getTargetValidationMetadatas.call(global, Child, '', false, false);
    expect(global.getTargetValidationMetadatas(Child, '', false, false)).toEqual(uncached);
    expect(global.getTargetValidationMetadatas(Child, '', false, false)).toBe(
      global.getTargetValidationMetadatas(Child, '', false, false),
    );
    expect(errorsOf(Object.assign(new Child(), { name: 1, size: 'x' }))).toEqual(['name', 'size']);
    expect(errorsOf(Object.assign(new Child(), { name: 'a', size: 2 }))).toEqual([]);
  });

  it('sees rules added after a class was first validated', () => {
    class Late {
      @IsString() a: string;
      b: unknown;
    }
    expect(errorsOf(Object.assign(new Late(), { a: 'x', b: 'y' }))).toEqual([]);
    IsInt()(Late.prototype, 'b');
    expect(errorsOf(Object.assign(new Late(), { a: 'x', b: 'y' }))).toEqual(['b']);
  });

  it('runs a property’s type check before its other rules, each-element checks and the rest in their order', () => {
    // Decorators apply bottom-up: class-validator registers these type checks last.
    class Written {
      @IsInt() @Min(1) @Max(10) n: number;
      @IsArray() @IsString({ each: true }) @MaxLength(3) tags: string[];
    }
    const order = (property: string) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(Written, '', false, false)
        .filter((m) => m.propertyName === property)
        .map((m) => m.name);
    expect(order('n')).toEqual(['isInt', 'max', 'min']);
    expect(order('tags')).toEqual(['isArray', 'maxLength', 'isString']);
    const first = (value: object) =>
      Object.keys(validateSync(Object.assign(new Written(), value), { stopAtFirstError: true })[0].constraints ?? {});
    expect(first({ n: 'abc', tags: [] })).toEqual(['isInt']);
    expect(first({ n: 5, tags: 'abcd' })).toEqual(['isArray']);
  });

  it('does not keep lookups with validation groups', () => {
    const global = getMetadataStorage();
    expect(global.getTargetValidationMetadatas(Child, '', false, false, ['g'])).not.toBe(
      global.getTargetValidationMetadatas(Child, '', false, false, ['g']),
    );
  });
});
