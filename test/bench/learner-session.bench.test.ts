import { describe, expect, it } from 'vitest';
import { capacityMeter } from '../../functions/lib/db';
import type { DashboardState, LearnerTask, ModulePage } from '../../shared/program-types';
import { doneBody } from '../integration/program-helpers';
import { useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { MEASURED_REQUESTS } from './cost-model';

/**
 * What the learner API requests of one signed-in visit cost (the cost model's
 * MEASURED_REQUESTS.learnerRequest, docs/cost-model.md): an enrolled learner comes back, looks at the
 * dashboard, opens the module in progress, saves its tasks until the module is done, and goes
 * on to the next one, through the local API as the SPA calls it. Each request's DynamoDB calls
 * and consumed capacity come from the meter the request log reads (functions/lib/http.ts).
 * The sign-in itself is measured apart (test/integration/sign-in-cost.test.ts).
 */
const api = useApi();

type Cost = { path: string; calls: number; read: number; write: number };

async function metered(client: ApiClient, method: 'GET' | 'PUT', path: string, body?: unknown): Promise<Cost> {
  capacityMeter.reset();
  const response = await client.request(method, path, body);
  expect(response.status, `${method} ${path}`).toBe(200);
  const { calls, read, write } = capacityMeter.snapshot();
  return { path: `${method} ${path}`, calls, read, write };
}

describe('a learner visit', () => {
  it('costs per request what the cost model says (read and write units, averaged over the visit)', async () => {
    const user = await createTestUser();
    const client = api.client();
    await signIn(client, user);
    expect((await client.post('/api/enroll')).status).toBe(200);

    const visit: Cost[] = [
      await metered(client, 'GET', '/api/auth/me'),
      await metered(client, 'GET', '/api/dashboard'),
      await metered(client, 'GET', '/api/dashboard/state'),
    ];
    const state = await client.get<DashboardState>('/api/dashboard/state');
    const slug = state.body.open_module!.slug;
    visit.push(await metered(client, 'GET', `/api/modules/${slug}`));
    const page = await client.get<ModulePage>(`/api/modules/${slug}`);
    for (const task of page.body.module.tasks.filter((t: LearnerTask) => t.required))
      visit.push(await metered(client, 'PUT', `/api/modules/${slug}/tasks/${task.task_id}`, doneBody(task)));
    visit.push(await metered(client, 'GET', '/api/dashboard/state'));
    const next = (await client.get<DashboardState>('/api/dashboard/state')).body.open_module!.slug;
    expect(next).not.toBe(slug); // the module was finished
    visit.push(await metered(client, 'GET', `/api/modules/${next}`));

    const average = (field: 'read' | 'write' | 'calls') => visit.reduce((sum, cost) => sum + cost[field], 0) / visit.length;
    console.log(
      [
        ...visit.map((cost) => `${cost.path.padEnd(60)} ${cost.calls} calls, ${cost.read} read, ${cost.write} write units`),
        `average of ${visit.length} requests: ${average('calls').toFixed(2)} calls, ${average('read').toFixed(2)} read, ${average('write').toFixed(2)} write units`,
      ].join('\n'),
    );
    // every request reads (the session at least), and the visit's saves write
    for (const cost of visit) expect(cost.read, cost.path).toBeGreaterThan(0);
    expect(average('write')).toBeGreaterThan(0);
    // the model's figure is what a visit measured, rounded up: a dearer request path fails here
    expect(average('read')).toBeLessThanOrEqual(MEASURED_REQUESTS.learnerRequest.readUnits);
    expect(average('write')).toBeLessThanOrEqual(MEASURED_REQUESTS.learnerRequest.writeUnits);
    expect(average('read')).toBeGreaterThan(MEASURED_REQUESTS.learnerRequest.readUnits - 1);
    expect(average('write')).toBeGreaterThan(MEASURED_REQUESTS.learnerRequest.writeUnits - 1);
  });
});
