import { fileURLToPath } from 'node:url';

/** The demo reader's cookies, signed in once by the global setup for the reader tests. */
export const readerState = fileURLToPath(new URL('./.auth/reader.json', import.meta.url));
