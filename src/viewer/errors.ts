import { ReclamoError } from '../errors.js';

/** The viewer was asked for something it cannot show (a missing file, a bad name, a busy port). */
export class ViewerError extends ReclamoError {
  override readonly name: string = 'ViewerError';
  constructor(
    message: string,
    /** HTTP status the server answers with. */
    readonly statusCode = 400,
  ) {
    super(message);
  }
}
