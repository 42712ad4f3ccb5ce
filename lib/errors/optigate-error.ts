/**
 * The base of every error OptiGate throws on purpose: a literal `code` that callers switch on (never the message),
 * as jose's errors have. What a caller may read is the message (or, for protocol errors, the description); what
 * only the log and the audit trail may read is a subclass's private `detail`. Serializers turn these into answers
 * per surface; anything that is not an OptiGateError is unexpected and becomes a server error.
 */
export abstract class OptiGateError<Code extends string = string> extends Error {
  abstract readonly code: Code;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
