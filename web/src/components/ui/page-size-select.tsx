import { useId } from 'react';
import { PAGE_SIZES } from '@shared/constants';

export interface PageSizeSelectProps {
  value: number;
  onChange: (size: number) => void;
}

/** "Rows per page": the page sizes the admin lists accept (docs/product.md#5-validation-rules). */
export function PageSizeSelect({ value, onChange }: PageSizeSelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Rows per page
      </label>
      <select id={id} className="field__input" value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}
