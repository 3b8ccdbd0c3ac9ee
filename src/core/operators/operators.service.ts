import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { GatewayError } from '../../platform/errors';
import { newId } from '../../platform/ids/ids';
import { Clock } from '../../platform/time/clock';
import { AuditTrail } from '../audit/audit.service';
import { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { OperatorDirectory } from './operator-directory';
import { OperatorRole } from './operator-roles';
import { newOperatorToken } from './operator-token';
import { OperatorEntity } from './operator.entity';
import { OperatorsRepository } from './operators.repository';

export interface OperatorChanges {
  role?: OperatorRole;
  disabled?: boolean;
}

/** An operator with the token just made for it: the token exists only in this answer. */
export interface IssuedOperator {
  operator: OperatorEntity;
  token: string;
}

/**
 * The team that runs the gateway: operators are added, changed and given a new token here, each
 * change with its audit entry in the same transaction, then announced so that every instance
 * stops accepting what changed at once.
 */
@Injectable()
export class OperatorsService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly directory: OperatorDirectory,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  list(): Promise<OperatorEntity[]> {
    return this.operators.all();
  }

  async create(input: { name: string; role: OperatorRole }, origin: ChangeOrigin): Promise<IssuedOperator> {
    const now = this.clock.nowMs();
    const { token, hash, prefix } = newOperatorToken();
    const operator = Object.assign(new OperatorEntity(), {
      id: newId('op'),
      name: input.name,
      role: input.role,
      disabled: false,
      tokenPrefix: prefix,
      tokenHash: hash,
      createdAt: now,
      updatedAt: now,
    });
    await this.transactions.run(async (tx) => {
      await this.operators.insert(tx, operator);
      await this.record(tx, origin, 'operator.create', null, operator);
    });
    return { operator, token };
  }

  async update(id: string, changes: OperatorChanges, origin: ChangeOrigin): Promise<OperatorEntity> {
    const updated = await this.transactions.run(async (tx) => {
      const operator = await this.require(id, tx);
      const before = operatorSnapshot(operator);
      if (changes.role !== undefined) operator.role = changes.role;
      if (changes.disabled !== undefined) operator.disabled = changes.disabled;
      operator.updatedAt = this.clock.nowMs();
      await this.operators.save(tx, operator);
      await this.record(tx, origin, 'operator.update', before, operator);
      return operator;
    });
    await this.directory.invalidate();
    return updated;
  }

  /** A new token; the old one is refused from the moment this answers, on every instance (with Redis). */
  async rotateToken(id: string, origin: ChangeOrigin): Promise<IssuedOperator> {
    const { token, hash, prefix } = newOperatorToken();
    const operator = await this.transactions.run(async (tx) => {
      const found = await this.require(id, tx);
      const before = operatorSnapshot(found);
      Object.assign(found, { tokenHash: hash, tokenPrefix: prefix, updatedAt: this.clock.nowMs() });
      await this.operators.save(tx, found);
      await this.record(tx, origin, 'operator.token_rotate', before, found);
      return found;
    });
    await this.directory.invalidate();
    return { operator, token };
  }

  private async require(id: string, tx: EntityManager): Promise<OperatorEntity> {
    const operator = await this.operators.findById(id, tx);
    if (!operator) throw GatewayError.notFound('Operator');
    return operator;
  }

  private async record(
    tx: EntityManager,
    origin: ChangeOrigin,
    action: AuditAction,
    before: object | null,
    after: OperatorEntity,
  ): Promise<void> {
    await this.audit.record(tx, origin, {
      action,
      target: { type: 'operator', id: after.id },
      before,
      after: operatorSnapshot(after),
    });
  }
}

/** What the audit trail keeps (and the API shows) of an operator: never its token's hash. */
export function operatorSnapshot(operator: OperatorEntity) {
  return {
    id: operator.id,
    name: operator.name,
    role: operator.role,
    disabled: operator.disabled,
    token_prefix: operator.tokenPrefix,
  };
}
