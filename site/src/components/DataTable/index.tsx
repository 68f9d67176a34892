/**
 * The pieces every table of the account and administration pages shares: the header row
 * (with a last, unnamed-on-screen column for the row's buttons) and the row's Revoke button.
 */

/** `<thead>` with one column heading each; `actions` adds the buttons' column, named for screen readers only. */
export function ColumnHeads({
  columns,
  actions = false,
}: {
  columns: readonly string[];
  actions?: boolean;
}): React.JSX.Element {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="portal-visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/** The small red "Revoke" button of a token or app row; `label` names what it revokes for screen readers. */
export function RevokeButton({ label, onClick }: { label: string; onClick: () => void }): React.JSX.Element {
  return (
    <button type="button" className="button button--sm button--danger" onClick={onClick} aria-label={label}>
      Revoke
    </button>
  );
}
