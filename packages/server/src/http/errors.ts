/** A failure with an HTTP status and a message a person can act on. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: HttpError['details']) => new HttpError(400, message, details);
export const unauthorized = (message = 'Sign in first') => new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do this') => new HttpError(403, message);
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const conflict = (message: string) => new HttpError(409, message);
export const tooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMediaType = (message: string) => new HttpError(415, message);
export const tooManyRequests = (message: string) => new HttpError(429, message);
