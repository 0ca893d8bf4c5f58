import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks `Authorization: Bearer <token>` headers in constant time. Both sides are hashed
 * first so that `timingSafeEqual` compares equal-length buffers and the token's length does
 * not leak either.
 *
 * @example
 * ```ts
 * const auth = new BearerAuth('s3cret');
 * auth.accepts('Bearer s3cret'); // true
 * ```
 */
export class BearerAuth {
  private readonly expected: Buffer | undefined;

  /** With no token every request is accepted. */
  constructor(token: string | undefined) {
    this.expected = token ? digest(token) : undefined;
  }

  get enabled(): boolean {
    return this.expected !== undefined;
  }

  /** Whether an `Authorization` header value carries the configured token. */
  accepts(header: string | undefined): boolean {
    if (!this.expected) return true;
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    const given = digest(match?.[1]?.trim() ?? '');
    return timingSafeEqual(given, this.expected) && match !== null;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
