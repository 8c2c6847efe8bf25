// The failure a part of the app service reports: a kind, plain words for the
// user, and the field it concerns; handlers pass it to the renderer as it is.
export class ServiceError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
