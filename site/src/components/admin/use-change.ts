import { useState } from 'react';

import { messageOf } from '@site/src/api/json-api';

/**
 * One change at a time on the organisations page: runs a call of the API, then says in
 * words what happened (`done`) or the server's reason it did not (`error`), and reloads.
 */
export function useChange(reload: () => Promise<void>) {
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function run(call: () => Promise<unknown>, done: string, failed: string): Promise<boolean> {
    setWorking(true);
    setError(null);
    setNotice(null);
    try {
      await call();
      setNotice(done);
      await reload();
      return true;
    } catch (caught) {
      setError(messageOf(caught, failed));
      return false;
    } finally {
      setWorking(false);
    }
  }

  return { working, error, notice, run, setError };
}
