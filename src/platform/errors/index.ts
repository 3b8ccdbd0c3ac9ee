export * from './error-codes';
export * from './error-dialect';
export * from './error-writer';
export * from './gateway-error';
