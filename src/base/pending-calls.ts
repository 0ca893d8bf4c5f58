/**
 * The bookkeeping of request/response messaging with a worker thread or child process: each
 * request gets an id, its answer settles the matching promise, and a failure of the other side
 * (crash, exit, timeout, close) rejects everything still outstanding, so no caller ever hangs.
 */

interface Call<T> {
  resolve(value: T): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
  /** What the request was, for error messages (e.g. `'step'`). */
  label: string;
}

/**
 * Outstanding calls by id.
 *
 * @example
 * ```ts
 * const calls = new PendingCalls<Reply>();
 * worker.on('message', (m: Reply & { id: number }) => calls.resolve(m.id, m));
 * worker.on('exit', () => calls.rejectAll(new Error('worker exited')));
 * const reply = await calls.call('run', (id) => worker.postMessage({ kind: 'run', id }));
 * ```
 */
export class PendingCalls<T> {
  private readonly calls = new Map<number, Call<T>>();
  private nextId = 0;

  /** Number of calls not yet answered. */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Registers a call under a fresh id, then lets `send` post the request with that id. With
   * `timeout`, `onTimeout` runs after `ms` milliseconds if the call is still outstanding (it
   * usually fails the other side, which rejects this call through {@link rejectAll}).
   */
  call(label: string, send: (id: number) => void, timeout?: { ms: number; onTimeout(): void }): Promise<T> {
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      const timer = timeout === undefined ? undefined : setTimeout(timeout.onTimeout, timeout.ms);
      this.calls.set(id, { resolve, reject, timer, label });
    });
    send(id);
    return answer;
  }

  /** Settles call `id` with its answer; returns false when no such call is outstanding. */
  resolve(id: number, value: T): boolean {
    const call = this.take(id);
    call?.resolve(value);
    return call !== undefined;
  }

  /** Rejects call `id` with the error `make` builds from the call's label; false when no such call. */
  reject(id: number, make: (label: string) => Error): boolean {
    const call = this.take(id);
    call?.reject(make(call.label));
    return call !== undefined;
  }

  /** Rejects every outstanding call with `error`. */
  rejectAll(error: Error): void {
    const calls = [...this.calls.values()];
    this.calls.clear();
    for (const call of calls) {
      clearTimeout(call.timer);
      call.reject(error);
    }
  }

  private take(id: number): Call<T> | undefined {
    const call = this.calls.get(id);
    if (!call) return undefined;
    this.calls.delete(id);
    clearTimeout(call.timer);
    return call;
  }
}
