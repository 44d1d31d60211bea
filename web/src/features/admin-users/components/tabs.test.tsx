import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs, type TabDef } from './tabs';

type Key = 'profile' | 'modules' | 'security' | 'audit';
const TABS: TabDef<Key>[] = [
  { key: 'profile', label: 'Profile' },
  { key: 'modules', label: 'Modules' },
  { key: 'security', label: 'Security' },
  { key: 'audit', label: 'Audit' },
];

function Harness() {
  const [active, setActive] = useState<Key>('profile');
  return (
    <Tabs tabs={TABS} active={active} onChange={setActive} label="User details">
      <p>{active} panel</p>
    </Tabs>
  );
}

const selected = () => screen.getByRole('tab', { selected: true });

describe('Tabs', () => {
  it('puts only the selected tab in the Tab order and labels the panel with it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);
    expect(screen.getByRole('tabpanel', { name: 'Profile' })).toHaveTextContent('profile panel');
    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([-1, -1, 0, -1]);
    expect(screen.getByRole('tabpanel', { name: 'Security' })).toHaveTextContent('security panel');
  });

  it('moves with the arrows (wrapping at both ends), Home and End, focus following', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('tab', { name: 'Profile' }));
    const steps: Array<[string, string]> = [
      ['{ArrowRight}', 'Modules'],
      ['{ArrowRight}', 'Security'],
      ['{End}', 'Audit'],
      ['{ArrowRight}', 'Profile'],
      ['{ArrowLeft}', 'Audit'],
      ['{ArrowLeft}', 'Security'],
      ['{Home}', 'Profile'],
    ];
    for (const [key, name] of steps) {
      await user.keyboard(key);
      expect(selected(), key).toHaveAccessibleName(name);
      expect(selected()).toHaveFocus();
    }
  });

  it('leaves other keys alone', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('tab', { name: 'Modules' }));
    await user.keyboard('{ArrowDown}{Enter}a');
    expect(selected()).toHaveAccessibleName('Modules');
  });
});
