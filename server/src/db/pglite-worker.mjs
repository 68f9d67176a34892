// The embedded database's own thread (see pglite-thread.ts). PGlite runs PostgreSQL,
// compiled to WebAssembly, in the thread that calls it; here that is this worker, so that
// writing the audit trail never takes time from the thread that answers requests.
// Plain JavaScript: a worker thread starts from a file Node.js runs as it is, in the tests
// (from src/) and in the build (copied into dist/).
import { parentPort, workerData } from 'node:worker_threads';

import { PGlite } from '@electric-sql/pglite';

/** What a failed query reports back: PostgreSQL's fields that callers look at. */
function describe(error) {
  const { message, code, detail, constraint, severity } = /** @type {Record<string, string>} */ (error ?? {});
  return { message: message ?? String(error), code, detail, constraint, severity };
}

const ROLLBACK = Symbol('rollback');

const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Text as COPY's text format wants it: backslash, tab, newline and return escaped. */
function escapeText(text) {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : text;
}

/**
 * A value as a field of COPY's text format: `\N` for null, `t`/`f`, a time in ISO form, a
 * text[] as PostgreSQL writes it (each element quoted, quotes and backslashes escaped), an
 * object as JSON, and text as it is, escaped.
 */
function copyField(value) {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return escapeText(`{${value.map((item) => `"${String(item).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  if (typeof value === 'object') return escapeText(JSON.stringify(value));
  return escapeText(String(value));
}

/** @type {PGlite} */
let db;
try {
  db = await PGlite.create(workerData.dataDir ?? undefined);
} catch (error) {
  parentPort.postMessage({ id: 0, error: describe(error) });
  process.exit(1);
}

/** Open transactions: the PGlite transaction, and how to end it. */
const transactions = new Map();
let nextTransaction = 1;

async function handle(message) {
  switch (message.type) {
    case 'query': {
      const target = message.tx ? transactions.get(message.tx)?.tx : db;
      if (!target) throw new Error('the transaction has ended');
      return { rows: (await target.query(message.sql, message.params)).rows };
    }
    case 'exec': {
      // A script of several statements (a migration): PGlite's simple-protocol call.
      const target = message.tx ? transactions.get(message.tx)?.tx : db;
      if (!target) throw new Error('the transaction has ended');
      try {
        return { rows: (await target.exec(message.sql)).flatMap((result) => result.rows ?? []) };
      } catch (error) {
        // A script's own BEGIN that failed midway would leave the one connection in an aborted
        // transaction for every later query (a pooled server hands out another connection).
        if (!message.tx) await db.exec('rollback').catch(() => undefined);
        throw error;
      }
    }
    case 'copy': {
      // Names come from the portal's code, never from a request; checked all the same.
      const names = [message.table, ...message.columns];
      if (!names.every((name) => /^[a-z_]+$/.test(name))) throw new Error('bad table or column name');
      let text = '';
      for (const row of message.rows) text += row.map(copyField).join('\t') + '\n';
      await db.query(`copy ${message.table} (${message.columns.join(', ')}) from '/dev/blob'`, [], {
        blob: new Blob([text]),
      });
      return {};
    }
    case 'begin': {
      const id = nextTransaction++;
      let end;
      const ended = new Promise((resolve) => (end = resolve));
      let opened;
      const open = new Promise((resolve) => (opened = resolve));
      // PGlite runs other queries only after this transaction: what the server's isolation gives.
      const finished = db
        .transaction(async (tx) => {
          transactions.set(id, { tx, end, finished: null });
          opened();
          if (!(await ended)) throw ROLLBACK;
        })
        .then(
          () => undefined,
          (error) => {
            if (error !== ROLLBACK) throw error;
          },
        );
      await Promise.race([open, finished]);
      const entry = transactions.get(id);
      if (!entry) throw new Error('the transaction did not start');
      entry.finished = finished;
      return { tx: id };
    }
    case 'end': {
      const entry = transactions.get(message.tx);
      if (!entry) throw new Error('the transaction has ended');
      transactions.delete(message.tx);
      entry.end(message.commit);
      await entry.finished;
      return {};
    }
    case 'close':
      await db.close();
      return {};
    default:
      throw new Error(`unknown request ${message.type}`);
  }
}

parentPort.on('message', (message) => {
  handle(message).then(
    (answer) => parentPort.postMessage({ id: message.id, ...answer }),
    (error) => parentPort.postMessage({ id: message.id, error: describe(error) }),
  );
});
parentPort.postMessage({ id: 0, ready: true });
