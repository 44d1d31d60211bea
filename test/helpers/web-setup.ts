import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // The SPA keeps small flags in storage (a pending verification address, "had a session"):
  // every test starts without them.
  localStorage.clear();
  sessionStorage.clear();
});
