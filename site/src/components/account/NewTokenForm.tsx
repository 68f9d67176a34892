import { useId, useState, type FormEvent } from 'react';

import { messageOf } from '@site/src/api/json-api';

import { tokenApi, type CreatedToken } from './api';
import { expiryChoices } from './format';
import styles from './account.module.css';

const DEFAULT_DAYS = 30;

/**
 * Names a token and picks its life (and, for an administrator, what it is for); hands the new
 * token (with its secret) to `onCreated`.
 */
export default function NewTokenForm({
  maxDays,
  administrator,
  onCreated,
}: {
  maxDays: number;
  /** Offers the `admin` scope (the server decides again). */
  administrator: boolean;
  onCreated: (created: CreatedToken) => void;
}): React.JSX.Element {
  const choices = expiryChoices(maxDays);
  const [name, setName] = useState('');
  const [days, setDays] = useState(choices.includes(DEFAULT_DAYS) ? DEFAULT_DAYS : (choices[0] ?? maxDays));
  const [scope, setScope] = useState<'read' | 'admin'>('read');
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  async function onSubmit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setError(null);
    if (name.trim() === '') {
      setError('Give the token a name, such as the assistant or machine that will use it.');
      return;
    }
    setWorking(true);
    try {
      onCreated(await tokenApi.create(name.trim(), days, scope));
      setName('');
    } catch (caught) {
      setError(messageOf(caught, 'The token was not made; try again.'));
    } finally {
      setWorking(false);
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} className={styles.form} noValidate>
      <label className={styles.field}>
        Token name
        <input
          type="text"
          value={name}
          maxLength={80}
          placeholder="Claude Code on my laptop"
          onChange={(event) => setName(event.target.value)}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
        />
      </label>
      <label className={styles.field}>
        Expires after
        <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice} days
            </option>
          ))}
        </select>
      </label>
      {administrator && (
        <label className={styles.field}>
          Used for
          <select value={scope} onChange={(event) => setScope(event.target.value === 'admin' ? 'admin' : 'read')}>
            <option value="read">Assistants: reading the documentation</option>
            <option value="admin">Automation: the administration API only</option>
          </select>
        </label>
      )}
      <button type="submit" className="button button--primary" disabled={working}>
        {working ? 'Creating…' : 'Create token'}
      </button>
      <div role="alert" id={errorId} className={styles.formError}>
        {error && <p className={styles.error}>{error}</p>}
      </div>
    </form>
  );
}
