import type { UnitInfo } from './access-api';
import { unitShelves } from './unit-picker-groups';
import styles from './admin.module.css';

/**
 * Checkboxes for the units of the access policy, on readable shelves (player packages,
 * adapters, UI toolkit, apps, other): what a licence or an access group gives.
 */
export default function UnitPicker({
  legend,
  units,
  selected,
  onChange,
}: {
  legend: string;
  units: readonly UnitInfo[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
}): React.JSX.Element {
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...selected, name] : selected.filter((unit) => unit !== name));
  return (
    <fieldset className={styles.unitPicker}>
      <legend>
        {legend} <span className={styles.muted}>({selected.length} chosen)</span>
      </legend>
      {unitShelves(units).map(({ shelf, units: onShelf }) => (
        <fieldset key={shelf} className={styles.unitShelf}>
          <legend>{shelf}</legend>
          {onShelf.map((unit) => (
            <label key={unit.name} className={styles.unitChoice}>
              <input
                type="checkbox"
                checked={selected.includes(unit.name)}
                onChange={(event) => toggle(unit.name, event.target.checked)}
              />{' '}
              {unit.label} <code className={styles.unitName}>{unit.name}</code>
            </label>
          ))}
        </fieldset>
      ))}
    </fieldset>
  );
}
