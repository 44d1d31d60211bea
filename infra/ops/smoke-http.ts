/**
 * The public API as a browser reaches it, for the smoke script: JSON in and out, the cookies the
 * API sets kept for the next call, and a time limit on every request.
 */
export interface SmokeResponse {
  status: number;
  body: Record<string, unknown>;
}

export class SmokeHttp {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown): Promise<SmokeResponse> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        'user-agent': 'career-program-smoke',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(';')[0];
      const index = pair.indexOf('=');
      const value = pair.slice(index + 1).trim();
      if (value) this.cookies.set(pair.slice(0, index).trim(), value);
      else this.cookies.delete(pair.slice(0, index).trim());
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { text };
    }
    return {
      status: response.status,
      body: typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : { value: parsed },
    };
  }

  /** The answer when its status is the expected one; otherwise an error naming the call and what came back. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await this.request(method, path, body);
    if (response.status !== status)
      throw new Error(`${method} ${path.split('?')[0]} answered ${response.status}, expected ${status}: ${JSON.stringify(response.body)}`);
    return response.body;
  }
}
