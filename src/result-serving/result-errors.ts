import { GatewayError } from '../platform/errors';
import { ErrorCause } from '../platform/http/openapi/error-responses';

/** How serving a result file can fail, for the routes that stream one. */
export const RESULT_ERROR_CAUSES = {
  invalidLink: {
    name: 'invalid_link',
    error: GatewayError.forbidden('The result URL is not valid.'),
    when: 'The URL is not one the gateway signed, or it has expired.',
  },
  notFound: {
    name: 'not_found',
    error: GatewayError.notFound('Result'),
    when: 'No such file, or retention has removed the kept copy.',
  },
  gone: {
    name: 'gone',
    error: new GatewayError(410, 'not_found', 'The result file has expired at the upstream and no copy was kept.'),
    when: 'The upstream’s copy has expired and the gateway kept none.',
  },
  unavailable: {
    name: 'service_unavailable',
    error: GatewayError.unavailable('The result file could not be fetched from the upstream.'),
    when: 'The upstream did not serve a file that is not kept yet.',
  },
} satisfies Record<string, ErrorCause>;
