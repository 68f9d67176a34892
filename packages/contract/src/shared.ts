/** Pieces the contract's schema modules share; not schemas of the API themselves (index.ts does not export them). */
import Type from 'typebox';

/** A schema or null. */
export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
/** A moment, as an ISO 8601 date-time. */
export const isoTime = Type.String({ format: 'date-time' });
/** A day (`2027-06-30`): a licence or a grant reads until the end of that day, UTC. */
export const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
