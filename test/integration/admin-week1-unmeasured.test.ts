import { describe, expect, it } from 'vitest';
import { enroll } from '../../functions/program/enroll';
import type { AdminSummary } from '../../shared/admin-types';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * The week-1 drop-off on a table where no enrollment is 7 days old yet (a table of its own: the
 * integration files each get one): it measures no one, and says so.
 */
const api = useApi();
const DAY = 24 * 3600 * 1000;

describe('GET /api/admin/summary before any enrollment is a week old', () => {
  it('measures no one: week1_measured 0, so the dashboard shows no drop-off rather than 0 %', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    // E enrolled minutes ago, F six days ago: neither week 1 has run its 7 days.
    const e = await createTestUser({ first_name: 'Eve' });
    await enroll(e, new Date(Date.now() - 10 * 60 * 1000));
    const f = await createTestUser({ first_name: 'Finn' });
    await enroll(f, new Date(Date.now() - 6 * DAY));

    const response = await adminClient.get<AdminSummary>('/api/admin/summary');
    expect(response.status).toBe(200);
    expect(response.body.cards).toMatchObject({ total_enrollments: 2, week1_dropoff: 0, week1_measured: 0 });
  });
});
