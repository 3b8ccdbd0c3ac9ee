import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from './columns';
import { compileSqliteHydrator } from './row-hydrator';

@Entity('hydration_probe')
class Probe {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'integer' }) count: number;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column(BigIntColumnOptions({ nullable: true })) at: number | null;
  @Column(JsonColumnOptions({ nullable: true })) payload: Record<string, unknown> | null;
  @Column({ type: 'boolean' }) flag: boolean;
  @Column({ type: 'datetime', nullable: true }) seen: Date | null;
  @Column({ type: 'simple-json', nullable: true }) extra: unknown;
  @Column({
    type: 'varchar',
    transformer: [
      { to: (v: string) => v, from: (v: string | null) => (v === null ? null : `${v}!`) },
      { to: (v: string) => v, from: (v: string | null) => (v === null ? null : v.toUpperCase()) },
    ],
  })
  chained: string;
}

describe('compileSqliteHydrator', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Probe], synchronize: true });
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  /** What TypeORM's driver makes of the same values, column by column. */
  function generic(values: unknown[]): Probe {
    const metadata = ds.getMetadata(Probe);
    const entity = metadata.create() as Record<string, unknown>;
    metadata.columns.forEach(
      (column, i) => (entity[column.propertyName] = ds.driver.prepareHydratedValue(values[i], column)),
    );
    return entity as unknown as Probe;
  }

  const rows: unknown[][] = [
    ['p1', 3, 'a note', 1_764_000_000_123, '{"a":[1,2],"b":null}', 1, '2026-11-24 09:05:07.042', '{"x":1}', 'abc'],
    ['p2', 0, null, null, null, 0, null, null, 'z'],
    ['p3', -7, '', '42', '[]', 1, '2026-11-24T09:05:07Z', '"s"', ''],
  ];

  it.each(rows.map((row) => [row[0], row]))('%s: the same entity as the driver hydrates, class and all', (_id, row) => {
    const metadata = ds.getMetadata(Probe);
    const hydrate = compileSqliteHydrator<Probe>(metadata, metadata.columns, ds.driver);
    expect(hydrate).not.toBeNull();
    const fast = hydrate!(row as unknown[]);
    expect(fast).toBeInstanceOf(Probe);
    expect(fast).toStrictEqual(generic(row as unknown[]));
  });

  it('converts as the driver does: booleans, dates, JSON, bigint as a number, chained transformers last to first', () => {
    const metadata = ds.getMetadata(Probe);
    const fast = compileSqliteHydrator<Probe>(metadata, metadata.columns, ds.driver)!(rows[0]);
    expect(fast).toMatchObject({
      flag: true,
      at: 1_764_000_000_123,
      payload: { a: [1, 2], b: null },
      extra: { x: 1 },
      chained: 'ABC!',
    });
    expect(fast.seen).toEqual(new Date('2026-11-24T09:05:07.042Z'));
  });
});
