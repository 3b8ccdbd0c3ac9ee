'use strict';
/**
 * CPU per task row turned into an entity: the compiled hydrator (`row-hydrator.ts`, fast paths on)
 * against the driver's conversion column by column (what TypeORM does), alternated.
 *
 *   npm run build && node bench/row-hydration.js
 */
require('reflect-metadata');
const path = require('node:path');
const { DataSource } = require('typeorm');

const root = path.join(__dirname, '../dist/src');
const { TaskEntity } = require(path.join(root, 'core/tasks/entities/task.entity.js'));
const { compileSqliteHydrator } = require(path.join(root, 'platform/database/row-hydrator.js'));
const N = 200_000;
const ROUNDS = 7;

(async () => {
  const ds = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: [TaskEntity],
    synchronize: true,
  });
  await ds.initialize();
  const metadata = ds.getMetadata(TaskEntity);
  const columns = metadata.columns.filter((c) => !c.isVirtual && !c.relationMetadata);
  const task = metadata.create();
  for (const c of columns) {
    const type = String(c.type);
    task[c.propertyName] = c.isNullable ? null : /int|numeric/.test(type) ? 1 : /bool/.test(type) ? false : 'x';
  }
  task.id = 'tsk_1';
  await ds.manager.insert(TaskEntity, task);
  const list = columns.map((c) => `"${c.databaseName}"`).join(', ');
  const row = ds.driver.databaseConnection.prepare(`SELECT ${list} FROM "${metadata.tableName}"`).raw(true).get();
  const compiled = compileSqliteHydrator(metadata, columns, ds.driver);
  const generic = (values) => {
    const entity = metadata.create();
    columns.forEach((c, i) => (entity[c.propertyName] = ds.driver.prepareHydratedValue(values[i], c)));
    return entity;
  };
  const perRow = (hydrate) => {
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) hydrate(row);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / N;
  };
  const runs = { compiled: [], generic: [] };
  for (let round = -2; round < ROUNDS; round++) {
    const c = perRow(compiled);
    const g = perRow(generic);
    if (round >= 0) runs.compiled.push(c) && runs.generic.push(g);
  }
  const { median } = require('./lib');
  for (const [name, values] of Object.entries(runs))
    process.stdout.write(
      `${name}: ${median(values).toFixed(2)} µs per row of ${columns.length} columns (${values.map((v) => v.toFixed(2)).join(', ')})\n`,
    );
  await ds.destroy();
})();
