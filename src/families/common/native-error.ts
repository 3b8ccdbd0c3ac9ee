import { GatewayError, NativeCodeTable, nativeCodeOf } from '../../platform/errors';

/**
 * The native code and message of an error: the upstream's own when it refused the request (the
 * client sees what the upstream said), otherwise the family's code for the status and the
 * gateway's message. `fromUpstream` reads the upstream's code in the family's type; `undefined`
 * falls back to the table.
 */
export function nativeCodeAndMessage<T>(
  err: GatewayError,
  table: NativeCodeTable<T>,
  fromUpstream: (code: string | number) => T | undefined,
): { code: T; message: string } {
  const native = err.options.native;
  const upstreamCode = native ? fromUpstream(native.code) : undefined;
  return { code: upstreamCode ?? nativeCodeOf(err, table), message: native?.message ?? err.message };
}
