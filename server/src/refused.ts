/** A request the caller can fix: its status (400, 404, 409…) and the short reason the answer gives (plugins/app/errors.ts). */
export class Refused extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** A count from a query string (the schema checked its digits), refused past `max`. */
export function countOf(value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (number > max) throw new Refused(400, `${value} is more than ${max}`);
  return number;
}
