import { describe, expect, it } from 'vitest';
import { BearerAuth } from '../../../src/remote/server/auth.js';

describe('BearerAuth', () => {
  it('accepts only the exact bearer token', () => {
    const auth = new BearerAuth('s3cret');
    expect(auth.enabled).toBe(true);
    expect(auth.accepts('Bearer s3cret')).toBe(true);
    expect(auth.accepts('bearer s3cret')).toBe(true);
    expect(auth.accepts('Bearer s3cre')).toBe(false);
    expect(auth.accepts('Bearer s3cret2')).toBe(false);
    expect(auth.accepts('s3cret')).toBe(false);
    expect(auth.accepts(undefined)).toBe(false);
  });

  it('accepts everything when no token is configured', () => {
    const auth = new BearerAuth(undefined);
    expect(auth.enabled).toBe(false);
    expect(auth.accepts(undefined)).toBe(true);
  });
});
