import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, inject } from 'vitest';
import type { ApiThrottles } from '../../infra/local/api-throttle';
import { contractProblems } from './api-contract';
import { drainActivityStream } from '../../infra/local/activity-stream';

/**
 * Integration-test access to the API exactly as the browser sees it: the local server (the
 * CloudFront stand-in → API Gateway v2 events → the real group Lambdas) on a free port, and
 * clients with their own cookie jars; also the API's own address without CloudFront in front.
 * Call `useApi()` at the top of a test file.
 */
/** A JSON answer whose shape the test has not named: read fields as `unknown`, or pass the response type. */
export type JsonBody = Record<string, unknown>;

export interface ApiResponse<T = JsonBody> {
  status: number;
  body: T;
  headers: Headers;
  setCookies: string[];
}

/**
 * Requests that read audit entries through their references: the audit log and its export, a
 * person's Audit tab, the hard-delete preview and the hard delete's scrub, and the account export.
 * A sign-in's `auth.login` entry is written from the table's stream (functions/lib/sign-in-audit.ts):
 * seconds later in AWS, within a second in the local runtime, which polls the stream. `useApi`'s
 * clients drain the stream before such a request, so a test checks what the screen shows once
 * those entries are written; a change's entry is there at once without it
 * (test/integration/audit-stream-refs.test.ts reads with a client that never drains).
 */
const READS_AUDIT_REFERENCES = [/\/audit-logs/, /\/hard-delete/, /^\/api\/account\/export/];
const readsAuditReferences = (path: string) => READS_AUDIT_REFERENCES.some((pattern) => pattern.test(path));

export class ApiClient {
  private readonly cookies = new Map<string, string>();
  constructor(
    private readonly baseUrl: string,
    private readonly defaults: { ip?: string; userAgent?: string } = {},
    /** Whether each exchange is held to the OpenAPI document (test/helpers/api-contract.ts); not at the API's own address. */
    private readonly contract = true,
    /** Whether audit reads drain the stream first: the in-process local API of `useApi` (the local runtime polls its own). */
    private readonly drainsStream = false,
  ) {}

  async request<T = JsonBody>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    if (this.drainsStream && readsAuditReferences(path)) await drainActivityStream();
    const init: RequestInit = {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(this.defaults.userAgent ? { 'user-agent': this.defaults.userAgent } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const [pair, ...attributes] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    if (this.contract) {
      const requestHeaders = new Headers(init.headers);
      const problems = contractProblems({
        method,
        url: path,
        requestContentType: requestHeaders.get('content-type') ?? undefined,
        requestBody: typeof init.body === 'string' ? init.body : undefined,
        status: response.status,
        responseContentType: response.headers.get('content-type') ?? '',
        headers: response.headers,
        body: parsed,
      });
      if (problems.length)
        throw new Error(`the answer breaks the API contract (functions/api-docs/openapi.json):\n- ${problems.join('\n- ')}`);
    }
    return { status: response.status, body: parsed as T, headers: response.headers, setCookies };
  }

  get<T = JsonBody>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = JsonBody>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = JsonBody>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  patch<T = JsonBody>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers);
  }
  delete<T = JsonBody>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }
  cookie(name: string) {
    return this.cookies.get(name);
  }
  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }
  clearCookies() {
    this.cookies.clear();
  }
}

/** Closes local servers, their open keep-alive connections too (a test's afterAll). */
export async function closeServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}

export interface UseApiOptions {
  /** API Gateway's throttles; default the deployed prod stage's (infra/edge-behaviour.ts). */
  throttles?: ApiThrottles;
}

export function useApi(options: UseApiOptions = {}) {
  const state: { baseUrl: string; directUrl: string; close?: () => Promise<void> } = { baseUrl: '', directUrl: '' };
  beforeAll(async () => {
    const [handlers, { createApiGateway }, { createApiServer, createDirectApiServer }] = await Promise.all([
      import('../../infra/local/group-handlers').then((m) => m.loadGroupHandlers()),
      import('../../infra/local/api-gateway'),
      import('../../infra/local/api-server'),
    ]);
    const api = createApiGateway({ handlers, throttles: options.throttles });
    // The secret integration-setup.ts gives the API (ORIGIN_SECRET): the front sends it, as CloudFront does.
    const servers = [createApiServer({ api, originSecret: process.env.ORIGIN_SECRET }), createDirectApiServer(api)];
    const [baseUrl, directUrl] = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve) =>
            server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
          ),
      ),
    );
    Object.assign(state, { baseUrl, directUrl });
    state.close = () => closeServers(servers);
  });
  afterAll(async () => state.close?.());
  return {
    /** A new client (browser) with an empty cookie jar, through the local CloudFront. */
    client: (defaults?: { ip?: string; userAgent?: string }) => new ApiClient(state.baseUrl, defaults, true, true),
    /** A client of the API's own address (as execute-api in the cloud): no CloudFront, so no origin-verify header. */
    directClient: (defaults?: { ip?: string; userAgent?: string }) => new ApiClient(state.directUrl, defaults, false, true),
    get baseUrl() {
      return state.baseUrl;
    },
  };
}

export interface StoredEmail {
  subject: string;
  to: string;
  text: string;
  html: string;
  at: number;
  /** Extra headers (SES v2 Simple content `Headers`, e.g. List-Unsubscribe). */
  headers: Array<{ name: string; value: string }>;
  /** Reply-To addresses (SES v2 `ReplyToAddresses`). */
  replyTo?: string[];
}

/** Reads what the app sent through the local SES (`GET /store`). */
export async function emailsTo(address: string, endpoint = inject('sesEndpoint')): Promise<StoredEmail[]> {
  const response = await fetch(`${endpoint}/store`);
  const store = (await response.json()) as {
    emails: Array<{
      subject: string;
      destination: { to: string[] };
      body: { text?: string; html?: string };
      at: number;
      headers?: Array<{ name: string; value: string }>;
      replyTo?: string[];
    }>;
  };
  return store.emails
    .filter((email) => email.destination.to.some((to) => to.toLowerCase().includes(address.toLowerCase())))
    .map((email) => ({
      subject: email.subject,
      to: email.destination.to.join(','),
      text: email.body.text ?? '',
      html: email.body.html ?? '',
      at: email.at,
      headers: email.headers ?? [],
      replyTo: email.replyTo ?? [],
    }));
}

/** The newest email to `address` (waits briefly for it), optionally matching a subject. */
export async function latestEmail(address: string, subject?: RegExp, endpoint = inject('sesEndpoint')): Promise<StoredEmail> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const emails = (await emailsTo(address, endpoint)).filter((email) => !subject || subject.test(email.subject));
    // `at` counts whole seconds: of mails sent within one second the last stored is the newest.
    if (emails.length) return emails.reduce((newest, email) => (email.at >= newest.at ? email : newest));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no email to ${address}${subject ? ` matching ${subject}` : ''}`);
}

/** The 6-digit code in an email's text. */
export const codeIn = (email: StoredEmail) => /\b(\d{6})\b/.exec(email.text)?.[1] ?? '';
