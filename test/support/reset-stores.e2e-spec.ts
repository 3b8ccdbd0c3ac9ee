import { Client } from 'pg';
import { resetStores } from './gateway-harness';

const databaseUrl = process.env.DATABASE_URL ?? '';

/** Resolves once a `DROP SCHEMA` of another session waits on a lock. */
async function dropWaitingOnLock(observer: Client): Promise<void> {
  for (;;) {
    const { rows } = await observer.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'DROP SCHEMA%'",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

if (databaseUrl.startsWith('postgres')) {
  describe('resetStores (test support) on PostgreSQL', () => {
    it('drops the schema again when PostgreSQL aborts the drop to break a deadlock with a running transaction', async () => {
      await resetStores({ DATABASE_URL: databaseUrl });
      const other = new Client({ connectionString: databaseUrl });
      const observer = new Client({ connectionString: databaseUrl });
      await other.connect();
      await observer.connect();
      try {
        await other.query('CREATE TABLE public.reset_probe (id int)');
        // The other transaction holds a row lock on a table the drop must take...
        await other.query('BEGIN');
        await other.query('INSERT INTO public.reset_probe VALUES (1)');
        const reset = resetStores({ DATABASE_URL: databaseUrl });
        await dropWaitingOnLock(observer);
        // ...and then waits on the schema the drop holds: PostgreSQL aborts the drop, which waited first.
        await other.query('CREATE TABLE public.reset_probe_2 (id int)');
        await other.query('COMMIT');
        await reset;
        const { rows } = await observer.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'reset_probe%'",
        );
        expect(rows).toEqual([]);
      } finally {
        await other.end();
        await observer.end();
      }
    });
  });
} else {
  describe('resetStores (test support) on SQLite', () => {
    it('has nothing to drop: each gateway has its own in-memory database', async () => {
      await expect(resetStores({ DATABASE_URL: 'sqlite::memory:' })).resolves.toBeUndefined();
    });
  });
}
