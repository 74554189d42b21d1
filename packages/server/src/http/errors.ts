import { type ErrorCode, errorCodes } from '@wharf/contract';

export interface FieldProblem {
  field: string;
  message: string;
}

/** A failure with a stable code (its HTTP status comes from the contract) and a message a person can act on. */
export class HttpError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldProblem[],
  ) {
    super(message);
    this.statusCode = errorCodes[code];
  }
}

export const httpError = (code: ErrorCode, message: string, details?: FieldProblem[]) =>
  new HttpError(code, message, details);

/** One field of the input is wrong: `field: message`, with the field named in `details` for forms. */
export const invalidField = (field: string, message: string, code: ErrorCode = 'VALIDATION_FAILED') =>
  new HttpError(code, `${field}: ${message}`, [{ field, message }]);
