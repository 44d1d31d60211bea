import { useId } from 'react';
import { PageSizeSelect } from '@/components/ui/page-size-select';
import { Button } from '@/components/ui/button';
import type { AuditFilters } from '../api/get-audit-logs';

const FIELDS: { key: keyof AuditFilters; label: string; type: string; placeholder?: string }[] = [
  { key: 'actor', label: 'Actor', type: 'search', placeholder: 'Actor email contains…' },
  { key: 'entity_type', label: 'Entity type', type: 'text' },
  { key: 'entity_id', label: 'Entity ID', type: 'text' },
  { key: 'action', label: 'Action key', type: 'text' },
  { key: 'date_from', label: 'Date from', type: 'date' },
  { key: 'date_to', label: 'Date to', type: 'date' },
];

export interface AuditFiltersProps {
  values: AuditFilters;
  onChange: (key: keyof AuditFilters, value: string) => void;
  onClear: () => void;
  pageSize: number;
  onPageSize: (size: number) => void;
}

export function AuditFiltersBar({ values, onChange, onClear, pageSize, onPageSize }: AuditFiltersProps) {
  const id = useId();
  return (
    <div className="audit-filters" role="search">
      {FIELDS.map((field) => (
        <div key={field.key} className="field">
          <label className="field__label" htmlFor={`${id}-${field.key}`}>
            {field.label}
          </label>
          <input
            id={`${id}-${field.key}`}
            className="field__input"
            type={field.type}
            placeholder={field.placeholder}
            value={values[field.key]}
            onChange={(event) => onChange(field.key, event.target.value)}
          />
        </div>
      ))}
      <PageSizeSelect value={pageSize} onChange={onPageSize} />
      <Button variant="secondary" onClick={onClear}>
        Clear
      </Button>
    </div>
  );
}
