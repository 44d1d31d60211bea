import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditPuts, writeAudit } from './audit';
import { createGroupHandler } from './http';
import { METRIC, metrics, metricsOfAuditAction } from './metrics';

const dynamo = mockClient(DynamoDBDocumentClient);
afterAll(() => dynamo.restore());
beforeEach(() => dynamo.reset());
afterEach(() => vi.restoreAllMocks());

const counted = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((call) => call[0]);

describe('audit action → metric', () => {
  it('maps each security event and admin action the code audits', () => {
    expect(metricsOfAuditAction('auth.register')).toEqual([METRIC.registrations]);
    expect(metricsOfAuditAction('auth.email_verified')).toEqual([METRIC.verifications]);
    expect(metricsOfAuditAction('auth.login')).toEqual([METRIC.signIns]);
    expect(metricsOfAuditAction('auth.login_failed')).toEqual([METRIC.failedSignIns]);
    expect(metricsOfAuditAction('auth.password_reset')).toEqual([METRIC.passwordResets]);
    expect(metricsOfAuditAction('admin.user.lock')).toEqual([METRIC.adminActions]);
    expect(metricsOfAuditAction('admin.module.complete')).toEqual([METRIC.adminActions]);
    expect(metricsOfAuditAction('user.role_changed')).toEqual([METRIC.adminActions]);
    expect(metricsOfAuditAction('admin.user.hard_delete')).toEqual([METRIC.adminActions, METRIC.hardDeletes]);
    expect(metricsOfAuditAction('auth.logout')).toEqual([]);
  });

  it('writeAudit counts once the entry is written, not when the write fails', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    dynamo.on(PutCommand).resolves({});
    await writeAudit({ action: 'auth.login_failed', entityType: 'user', entityId: 'u1' });
    // the entry and its references are puts of their own: one refused fails the write
    dynamo.reset();
    dynamo.on(PutCommand).rejects(new Error('boom'));
    await expect(writeAudit({ action: 'auth.login_failed', entityType: 'user', entityId: 'u1' })).rejects.toThrow('boom');
    expect(counted(addMetric)).toEqual([METRIC.failedSignIns]);
    expect(addMetric).toHaveBeenCalledWith(METRIC.failedSignIns, 'Count', 1);
  });

  it('auditPuts counts the transaction entry it builds', () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    auditPuts({ action: 'admin.user.hard_delete', entityType: 'user', entityId: 'u1' });
    expect(counted(addMetric)).toEqual([METRIC.adminActions, METRIC.hardDeletes]);
  });
});

describe('the middy chain', () => {
  it('flushes the metrics of each request, also of a failed one', async () => {
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    const handler = createGroupHandler('auth', {
      'GET /api/auth/me': {
        handler: () => Promise.reject(new Error('crash')),
      },
    });
    const event = {
      version: '2.0',
      routeKey: 'GET /api/auth/me',
      rawPath: '/api/auth/me',
      rawQueryString: '',
      headers: {},
      cookies: [],
      requestContext: { http: { method: 'GET', path: '/api/auth/me', sourceIp: '198.51.100.1', userAgent: 'unit' }, requestId: 'r1' },
      isBase64Encoded: false,
    };
    const response = (await handler(event as never, { functionName: 'f', awsRequestId: 'a' } as never)) as { statusCode: number };
    expect(response.statusCode).toBe(401);
    expect(publish).toHaveBeenCalledTimes(1);
  });
});
