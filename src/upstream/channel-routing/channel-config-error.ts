/** A bad channel setting; the message names the variable (never its secret value). */
export class ChannelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChannelConfigError';
  }
}
