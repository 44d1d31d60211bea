/**
 * The one network mock of the web tests: an MSW server intercepting `fetch` in jsdom. The web
 * setup file starts it (any request no test answered fails the test), resets the handlers a test
 * added after each test and closes it at the end. Tests add answers through `mockFetch`
 * (./mock-api.ts), never by replacing the global `fetch`.
 */
import { setupServer } from 'msw/node';

export const server = setupServer();
