import { useMutation } from '@tanstack/react-query';
import type { NotificationPreferences } from '../../../../../shared/program-types';
import { api } from '../../../lib/api-client';

/**
 * `POST /api/notifications/unsubscribe?token=…` with the one-click body (docs/product.md#unsubscribe),
 * sent as JSON from the confirmation page; mail providers send the same as a form.
 */
export const unsubscribe = (token: string) =>
  api.post<NotificationPreferences>(`/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
    'List-Unsubscribe': 'One-Click',
  });

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
