import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { onSessionGone } from '../lib/session-answers';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client: QueryClient = new QueryClient({
      // One place for an ended session on every signed-in page (docs/product.md#4-states-and-transitions).
      queryCache: new QueryCache({ onError: (error) => onSessionGone(client)(error) }),
      mutationCache: new MutationCache({ onError: (error) => onSessionGone(client)(error) }),
      defaultOptions: {
        queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      },
    });
    return client;
  });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
