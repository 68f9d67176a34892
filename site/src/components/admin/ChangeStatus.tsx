import styles from './admin.module.css';

/** What the last change did, in words: the server's reason it failed (an alert), or what it did. */
export default function ChangeStatus({
  error,
  notice,
}: {
  error: string | null;
  notice: string | null;
}): React.JSX.Element {
  return (
    <>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      <div role="status" className={styles.notice}>
        {notice}
      </div>
    </>
  );
}
