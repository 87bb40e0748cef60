// Handlers never throw into the connection. A request that fails is logged and answered with an error; a cancelled
// one is answered as cancelled; a notification that fails is logged. One bad message must not end a session.
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken } from './protocol.js';

export interface ErrorLog {
  error(message: string): void;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function cancelledError(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
}

/**
 * A result that stands even if the request is cancelled before it is answered: what it reports has happened (an
 * edit the client was sent), and answering "cancelled" would tell the client nothing did.
 */
export class Done<R> {
  constructor(readonly value: R) {}
}

export function guardRequest<P, R>(
  log: ErrorLog,
  method: string,
  handler: (params: P, token: CancellationToken) => R | Done<R> | Promise<R | Done<R>>,
): (params: P, token: CancellationToken) => Promise<R | ResponseError<void>> {
  return async (params, token) => {
    try {
      if (token.isCancellationRequested) return cancelledError();
      const result = await handler(params, token);
      if (result instanceof Done) return result.value;
      return token.isCancellationRequested ? cancelledError() : result;
    } catch (error) {
      if (error instanceof ResponseError) return error as ResponseError<void>;
      log.error(`${method} failed: ${describeError(error)}`);
      const message = error instanceof Error ? error.message : String(error);
      return new ResponseError(ErrorCodes.InternalError, `${method} failed: ${message}`);
    }
  };
}

export function guardNotification<P>(log: ErrorLog, method: string, handler: (params: P) => void | Promise<void>): (params: P) => void {
  const report = (error: unknown) => log.error(`${method} failed: ${describeError(error)}`);
  return (params) => {
    try {
      const result = handler(params);
      if (result) result.catch(report);
    } catch (error) {
      report(error);
    }
  };
}
