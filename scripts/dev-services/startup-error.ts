/** A reason `npm start` cannot go on, written for the person at the terminal: printed as is, without a stack trace. */
export class StartupError extends Error {
  override name = 'StartupError';
}
