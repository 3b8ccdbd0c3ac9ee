import { GatewayError } from '../../platform/errors';
import type { AccountEntity } from '../accounts/entities/account.entity';

/**
 * 403 `insufficient_quota` that says what to do: the available balance, what is held for work in
 * flight (it comes back when that work ends) and the price of the refused request, in price units.
 * `account`: read after the refusal; null when it could not be read (the message is then generic).
 */
export function insufficientQuota(
  account: Pick<AccountEntity, 'balance' | 'held'> | null,
  price: number,
): GatewayError {
  if (!account) return GatewayError.insufficientQuota();
  return GatewayError.insufficientQuota(
    `The account balance cannot cover this request: available balance ${account.balance}, ` +
      `held for tasks in flight ${account.held}, price of this request ${price} (price units). ` +
      'Top up the account, or wait for tasks in flight to finish and release their holds.',
  );
}
