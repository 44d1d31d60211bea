// DOM matchers (toBeInTheDocument, toHaveTextContent…) on vitest's expect, with their types.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { clearSignedInHint } from '../../web/src/lib/signed-in-hint';
import { server } from '../../web/src/testing/msw-server';

// Every request a test makes is answered by a handler it installed (web/src/testing/mock-api.ts):
// anything else errors in the app and fails the test (the app may swallow the network error, so
// the test is failed here, not left to the app).
const unhandled: string[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:unhandled', ({ request }) => {
    unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
  });
});
afterAll(() => server.close());

afterEach(() => {
  cleanup();
  server.resetHandlers();
  const missed = unhandled.splice(0);
  if (missed.length > 0) throw new Error(`Requests no handler answered: ${missed.join(', ')}`);
  // The SPA keeps small flags in storage (a pending verification address, "had a session"):
  // every test starts without them.
  localStorage.clear();
  sessionStorage.clear();
  clearSignedInHint();
});

// jsdom has <dialog> but not its modal API: open/close it the way a browser does (the `open`
// attribute and the `close` event), so components built on the native element can be tested.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement, returnValue?: string) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    if (returnValue !== undefined) this.returnValue = returnValue;
    this.dispatchEvent(new Event('close'));
  };
}
