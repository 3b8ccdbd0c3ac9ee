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
import { setFastPaths } from '../config/fast-paths';
import { installValidationMetadataCache } from './class-validator-internals';

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

// Contract: what the gateway relies on in the installed class-validator.
describe('class-validator internals', () => {
  it('validate looks rules up through the global storage, by getTargetValidationMetadatas and groupByPropertyName', () => {
    class Probe {
      @IsString() a: string;
    }
    const storage = getMetadataStorage();
    const lookUp = jest.spyOn(storage, 'getTargetValidationMetadatas');
    const group = jest.spyOn(storage, 'groupByPropertyName');
    try {
      expect(validateSync(Object.assign(new Probe(), { a: 1 }))).toHaveLength(1);
      expect(lookUp).toHaveBeenCalledWith(Probe, undefined, false, false, undefined);
      expect(group).toHaveBeenCalled();
    } finally {
      lookUp.mockRestore();
      group.mockRestore();
    }
  });

  it('adds every rule of a decorator through addValidationMetadata', () => {
    const add = jest.spyOn(getMetadataStorage(), 'addValidationMetadata');
    try {
      class Later {
        b: unknown;
      }
      IsInt()(Later.prototype, 'b');
      expect(add).toHaveBeenCalledWith(expect.objectContaining({ target: Later, propertyName: 'b', name: 'isInt' }));
    } finally {
      add.mockRestore();
    }
  });
});

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

  it('keeps nothing while fast paths are off (FAST_PATHS=false), still in type-checks-first order', () => {
    const global = getMetadataStorage();
    setFastPaths(false);
    try {
      const a = global.getTargetValidationMetadatas(Child, '', false, false);
      expect(a).not.toBe(global.getTargetValidationMetadatas(Child, '', false, false));
      expect(global.groupByPropertyName(a)).not.toBe(global.groupByPropertyName(a));
      expect(errorsOf(Object.assign(new Child(), { name: 1, size: 'x' }))).toEqual(['name', 'size']);
    } finally {
      setFastPaths(true);
    }
    const b = global.getTargetValidationMetadatas(Child, '', false, false);
    expect(global.groupByPropertyName(b)).toBe(global.groupByPropertyName(b));
  });

  it('does not keep lookups with validation groups', () => {
    const global = getMetadataStorage();
    expect(global.getTargetValidationMetadatas(Child, '', false, false, ['g'])).not.toBe(
      global.getTargetValidationMetadatas(Child, '', false, false, ['g']),
    );
  });
});
