import { describe, expect, it } from 'vitest';
import { readEdgePolicy } from './edgePolicy.js';

const policy = readEdgePolicy(
  {
    routes: [
      { call: 'vote', bodyLimitBytes: 1024, rateLimit: { scope: { pathParameter: 'handle', maxLength: 100 } } },
      { call: 'results' },
    ],
    formPages: [{ page: 'contact', maxBodyBytes: 6291456 }, { page: 'other' }],
  },
  'mf-x/server/edge-policy.json',
);

describe('readEdgePolicy', () => {
  it('reads the numbers the policy declares', () => {
    expect(policy.bodyLimit('vote')).toBe(1024);
    expect(policy.rateLimitScopeMaxLength('vote')).toBe(100);
    expect(policy.formPageMaxBodyBytes('contact')).toBe(6291456);
    expect(policy.route('results')).toEqual({ call: 'results' });
  });

  it('stops the service at its start, naming the file and what it lacks', () => {
    expect(() => policy.route('download')).toThrow('mf-x/server/edge-policy.json declares no download call');
    expect(() => policy.bodyLimit('results')).toThrow('mf-x/server/edge-policy.json declares no body limit for the results call');
    expect(() => policy.rateLimitScopeMaxLength('results')).toThrow('mf-x/server/edge-policy.json declares no rate-limit scope length for the results call');
    expect(() => policy.formPageMaxBodyBytes('other')).toThrow('mf-x/server/edge-policy.json declares no other form page with maxBodyBytes');
    expect(() => readEdgePolicy({}).formPageMaxBodyBytes('contact')).toThrow('slice.json declares no contact form page with maxBodyBytes');
  });
});
