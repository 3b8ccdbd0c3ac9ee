export * from './error-codes';
export * from './gateway-error';
export * from './native-error-fields';
