'use strict';
/**
 * Counts the SQL statements TypeORM sends (SQLite through better-sqlite3, PostgreSQL through pg) by
 * wrapping the query runners' `query` method, and the statements better-sqlite3 has to prepare
 * (a miss in TypeORM's per-runner statement cache). In-process only: require it before the
 * DataSource is built.
 */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const counter = { queries: 0, prepares: 0, byText: new Map(), recording: false };

function wrap(modulePath, className) {
  let mod;
  try {
    mod = require(require.resolve(modulePath, { paths: [ROOT] }));
  } catch {
    return;
  }
  const proto = mod[className].prototype;
  if (proto.__benchWrapped) return;
  const original = proto.query;
  proto.query = function countedQuery(query, ...rest) {
    counter.queries++;
    if (counter.recording) {
      const key = String(query).replace(/\s+/g, ' ').slice(0, 400);
      counter.byText.set(key, (counter.byText.get(key) || 0) + 1);
    }
    return original.call(this, query, ...rest);
  };
  proto.__benchWrapped = true;
}

wrap('typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner', 'BetterSqlite3QueryRunner');
wrap('typeorm/driver/postgres/PostgresQueryRunner', 'PostgresQueryRunner');

try {
  const Database = require(require.resolve('better-sqlite3', { paths: [ROOT] }));
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function countedPrepare(...args) {
    counter.prepares++;
    return prepare.apply(this, args);
  };
} catch {
  /* better-sqlite3 not installed */
}

module.exports = {
  snapshot: () => ({ queries: counter.queries, prepares: counter.prepares }),
  since: (before) => ({ queries: counter.queries - before.queries, prepares: counter.prepares - before.prepares }),
  record(on) {
    counter.recording = on;
    if (on) counter.byText.clear();
  },
  texts: () => [...counter.byText.entries()].sort((a, b) => b[1] - a[1]),
};
