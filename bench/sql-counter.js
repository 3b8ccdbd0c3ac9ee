'use strict';
/**
 * Counts the SQL statements TypeORM sends (SQLite through better-sqlite3, PostgreSQL through pg) by
 * wrapping the query runners' `query` method, and the statements better-sqlite3 has to prepare
 * (a miss in TypeORM's per-runner statement cache). In-process only: require it before the
 * DataSource is built.
 */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const counter = { queries: 0, prepares: 0, trips: 0, byText: new Map(), recording: false };

function note(query) {
  counter.queries++;
  if (counter.recording) {
    const key = String(query).replace(/\s+/g, ' ').slice(0, 400);
    counter.byText.set(key, (counter.byText.get(key) || 0) + 1);
  }
}

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

// Statements are counted where they reach the driver, so that those the repositories run through
// the driver directly (platform/database/hot-sql.ts) count as well as TypeORM's.
try {
  const Database = require(require.resolve('better-sqlite3', { paths: [ROOT] }));
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function countedPrepare(...args) {
    counter.prepares++;
    const stmt = prepare.apply(this, args);
    for (const method of ['run', 'get', 'all']) {
      const original = stmt[method];
      stmt[method] = function countedStatement(...params) {
        note(stmt.source);
        return original.apply(stmt, params);
      };
    }
    return stmt;
  };
} catch {
  /* better-sqlite3 not installed */
}
// PostgreSQL: every Client#query is one round trip to the server.
try {
  const pg = require(require.resolve('pg', { paths: [ROOT] }));
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(config, ...rest) {
    counter.trips++;
    note(typeof config === 'string' ? config : config && config.text);
    return query.call(this, config, ...rest);
  };
} catch {
  /* pg not installed */
}
void wrap;

module.exports = {
  snapshot: () => ({ queries: counter.queries, prepares: counter.prepares, trips: counter.trips }),
  since: (before) => ({
    queries: counter.queries - before.queries,
    prepares: counter.prepares - before.prepares,
    trips: counter.trips - before.trips,
  }),
  record(on) {
    counter.recording = on;
    if (on) counter.byText.clear();
  },
  texts: () => [...counter.byText.entries()].sort((a, b) => b[1] - a[1]),
};
