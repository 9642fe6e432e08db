import { metricsText } from '@khs/observability';
import { describe, expect, it } from 'vitest';
import { createServiceApp } from './createServiceApp.js';
import { timedRepositories } from './database/timedRepositories.js';

describe('a team service is observed', () => {
  it('serves /metrics only with the operators token, with its requests by route pattern', async () => {
    const app = createServiceApp({ name: 'probe', operatorToken: 'operator-token-for-the-probe' });
    app.get('/items/:id', async () => ({ ok: true }));
    await app.inject('/items/7');
    expect((await app.inject('/metrics')).statusCode).toBe(401);
    const scraped = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer operator-token-for-the-probe' } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toMatch(/http_requests_total\{route="\/items\/:id",method="GET",status_code="200"/);
  });

  it('has no /metrics without a token', async () => {
    const app = createServiceApp({ name: 'probe', operatorToken: undefined });
    expect((await app.inject('/metrics')).statusCode).toBe(404);
  });

  it('times every repository call, sync and async, by method and outcome', async () => {
    const repositories = timedRepositories('probe', {
      votes: {
        count: () => 3,
        save: async (value: number) => value * 2,
        fail: async () => {
          throw new Error('down');
        },
      },
    });
    expect(repositories.votes.count()).toBe(3);
    expect(await repositories.votes.save(2)).toBe(4);
    await expect(repositories.votes.fail()).rejects.toThrow('down');
    const { body } = await metricsText();
    expect(body).toMatch(/khs_storage_call_duration_seconds_count\{service="probe",operation="votes.count",outcome="ok"\} 1/);
    expect(body).toMatch(/khs_storage_call_duration_seconds_count\{service="probe",operation="votes.save",outcome="ok"\} 1/);
    expect(body).toMatch(/khs_storage_call_duration_seconds_count\{service="probe",operation="votes.fail",outcome="error"\} 1/);
  });
});
