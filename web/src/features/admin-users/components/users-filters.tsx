import { useId } from 'react';
import { PageSizeSelect } from '@/components/ui/page-size-select';

export interface UsersFiltersProps {
  search: string;
  onSearch: (text: string) => void;
  status: string;
  onStatus: (status: string) => void;
  filter: string;
  onFilter: (filter: string) => void;
  pageSize: number;
  onPageSize: (size: number) => void;
}

const STATUS_OPTIONS = [
  { value: '', label: 'Active + Locked' },
  { value: 'all', label: 'All users' },
  { value: 'deleted', label: 'Deleted' },
];

/** Reached only through an address (docs/product.md#5-validation-rules allows them); listed so the select shows the truth. */
const EXTRA_STATUS_OPTIONS: Record<string, string> = { active: 'Active', locked: 'Locked' };

const FILTER_OPTIONS = [
  { value: '', label: 'All cohorts' },
  { value: 'active7d', label: 'Active (7 days)' },
  { value: 'active30d', label: 'Active (30 days)' },
  { value: 'unverified', label: 'Unverified' },
  { value: 'week1_dropoff', label: 'Week-1 drop-off' },
  { value: 'deleted', label: 'Deleted (drill)' },
];

export function UsersFilters(props: UsersFiltersProps) {
  const id = useId();
  const statusOptions = EXTRA_STATUS_OPTIONS[props.status]
    ? [...STATUS_OPTIONS, { value: props.status, label: EXTRA_STATUS_OPTIONS[props.status] }]
    : STATUS_OPTIONS;
  return (
    <div className="admin-filters" role="search">
      <div className="field admin-filters__search">
        <label className="field__label" htmlFor={`${id}-q`}>
          Search
        </label>
        <input
          id={`${id}-q`}
          className="field__input"
          type="search"
          placeholder="Search email or name"
          value={props.search}
          onChange={(event) => props.onSearch(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-status`}>
          Status
        </label>
        <select id={`${id}-status`} className="field__input" value={props.status} onChange={(event) => props.onStatus(event.target.value)}>
          {statusOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-filter`}>
          Cohort
        </label>
        <select id={`${id}-filter`} className="field__input" value={props.filter} onChange={(event) => props.onFilter(event.target.value)}>
          {FILTER_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field admin-filters__check">
        <label>
          <input type="checkbox" checked={props.status === 'all'} onChange={(event) => props.onStatus(event.target.checked ? 'all' : '')} />{' '}
          Include deleted
        </label>
      </div>
      <PageSizeSelect value={props.pageSize} onChange={props.onPageSize} />
    </div>
  );
}
