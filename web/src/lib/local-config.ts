import { queryOptions, useQuery } from '@tanstack/react-query';

/** What the local runtime tells the SPA about itself (infra/local/api-server.ts). */
export interface LocalConfig {
  mail_viewer_url: string;
}

/**
 * `null` outside local mode. In the cloud `/__local/config` answers the SPA's index.html (SPA
 * fallback) or a 404, so anything that is not JSON with a mail viewer address means "not local".
 * It never throws: a missing local config must not break a sign-in screen.
 */
export async function getLocalConfig(): Promise<LocalConfig | null> {
  try {
    const response = await fetch('/__local/config', { headers: { Accept: 'application/json' } });
    if (!response.ok) return null;
    const body: unknown = JSON.parse(await response.text());
    if (body && typeof body === 'object' && typeof (body as LocalConfig).mail_viewer_url === 'string') {
      return { mail_viewer_url: (body as LocalConfig).mail_viewer_url };
    }
    return null;
  } catch {
    return null;
  }
}

export const localConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['local-config'],
    queryFn: getLocalConfig,
    // The runtime does not change while the page is open.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

export const useLocalConfig = () => useQuery(localConfigQueryOptions());
