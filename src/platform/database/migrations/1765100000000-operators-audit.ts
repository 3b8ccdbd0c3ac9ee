import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Named operators (their tokens stored only as SHA-256 hashes) and the audit trail of admin
 * changes: its entries, hash-chained, and the chain head (one row, the last entry's position and
 * hash), which every append updates first so that appends queue on it.
 */
export class OperatorsAudit1765100000000 implements MigrationInterface {
  name = 'OperatorsAudit1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'operators',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'disabled', type: 'boolean', default: false },
          { name: 'token_prefix', type: 'varchar', length: '32' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'uq_operators_token_hash', columnNames: ['token_hash'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'audit_entries',
        columns: [
          { name: 'seq', type: 'integer', isPrimary: true },
          { name: 'id', type: 'varchar', length: '64' },
          { name: 'at', type: 'bigint' },
          { name: 'actor_id', type: 'varchar', length: '64' },
          { name: 'actor_name', type: 'varchar', length: '200' },
          { name: 'actor_role', type: 'varchar', length: '16' },
          { name: 'action', type: 'varchar', length: '64' },
          { name: 'target_type', type: 'varchar', length: '32' },
          { name: 'target_id', type: 'varchar', length: '128' },
          { name: 'account_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'before', type: 'text', isNullable: true },
          { name: 'after', type: 'text', isNullable: true },
          { name: 'request_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'prev_hash', type: 'varchar', length: '64' },
          { name: 'hash', type: 'varchar', length: '64' },
        ],
        indices: [
          new TableIndex({ name: 'uq_audit_entries_id', columnNames: ['id'], isUnique: true }),
          new TableIndex({ name: 'idx_audit_entries_at', columnNames: ['at', 'id'] }),
          new TableIndex({ name: 'idx_audit_entries_target', columnNames: ['target_type', 'target_id'] }),
          new TableIndex({ name: 'idx_audit_entries_account', columnNames: ['account_id'] }),
          new TableIndex({ name: 'idx_audit_entries_actor', columnNames: ['actor_id'] }),
          new TableIndex({ name: 'idx_audit_entries_action', columnNames: ['action'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'audit_chain_head',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'seq', type: 'integer' },
          { name: 'hash', type: 'varchar', length: '64' },
        ],
      }),
    );
    await q.query(`INSERT INTO "audit_chain_head" ("id", "seq", "hash") VALUES (1, 0, '${'0'.repeat(64)}')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('audit_chain_head');
    await q.dropTable('audit_entries');
    await q.dropTable('operators');
  }
}
