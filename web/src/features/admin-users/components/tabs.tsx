import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<K extends string> {
  key: K;
  label: string;
}

export interface TabsProps<K extends string> {
  tabs: TabDef<K>[];
  active: K;
  onChange: (key: K) => void;
  label: string;
  children: ReactNode;
}

/** The tab a key moves to, from the active one (`last`: the last tab's index); arrows wrap around. */
const KEY_TARGETS: Partial<Record<string, (active: number, last: number) => number>> = {
  ArrowRight: (active, last) => (active === last ? 0 : active + 1),
  ArrowLeft: (active, last) => (active === 0 ? last : active - 1),
  Home: () => 0,
  End: (_active, last) => last,
};

/** WAI-ARIA tabs: only the selected tab is in the Tab order; arrows, Home and End move between tabs. */
export function Tabs<K extends string>({ tabs, active, onChange, label, children }: TabsProps<K>) {
  const id = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const activeIndex = Math.max(
    0,
    tabs.findIndex((tab) => tab.key === active),
  );

  const onKeyDown = (event: KeyboardEvent) => {
    const target = KEY_TARGETS[event.key]?.(activeIndex, tabs.length - 1);
    if (target === undefined) return;
    event.preventDefault();
    onChange(tabs[target].key);
    buttons.current[target]?.focus();
  };

  return (
    <div className="admin-tabs">
      <div role="tablist" aria-label={label} className="admin-tabs__list">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.key}`}
            aria-selected={tab.key === active}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === active ? 0 : -1}
            className="admin-tabs__tab"
            onClick={() => onChange(tab.key)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${active}`} tabIndex={0} className="admin-tabs__panel">
        {children}
      </div>
    </div>
  );
}
