import type { Twin, TwinResponse } from './twin';

/**
 * One simulated browser: its cookie jar, its address and user agent, through the twin's API.
 * Every answer is handed to the run's recorder (status counts, 5xx with what was injected then).
 */
export interface Recorder {
  record: (method: string, path: string, response: TwinResponse) => void;
}

export class SimClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly twin: Twin,
    private readonly recorder: Recorder,
    readonly ip: string,
    readonly userAgent: string,
  ) {}

  /**
   * One call, as a person makes it: after a 5xx (the product's 503 `unavailable` says to try
   * again) they try again, twice at most. `retried` tells the caller that an earlier try may have
   * done the work (a retried registration answers `verification_pending`, a retried lock `already_locked`).
   */
  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Omit<TwinResponse, 'body'> & { body: T; retried: boolean }> {
    let response: TwinResponse | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      response = await this.once(method, path, body);
      if (response.status < 500) return { ...response, body: response.body as T, retried: attempt > 0 };
    }
    return { ...response!, body: response!.body as T, retried: true };
  }

  private async once(method: string, path: string, body?: unknown): Promise<TwinResponse> {
    const response = await this.twin.invoke({ method, path, body, ip: this.ip, userAgent: this.userAgent, cookies: this.cookies });
    for (const cookie of response.setCookies) {
      const [pair, ...attributes] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (!value || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    this.recorder.record(method, path, response);
    return response;
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = Record<string, unknown>>(path: string, body: unknown = {}) {
    return this.request<T>('POST', path, body);
  }
  put<T = Record<string, unknown>>(path: string, body: unknown = {}) {
    return this.request<T>('PUT', path, body);
  }
  patch<T = Record<string, unknown>>(path: string, body: unknown = {}) {
    return this.request<T>('PATCH', path, body);
  }
  delete<T = Record<string, unknown>>(path: string) {
    return this.request<T>('DELETE', path);
  }
}
