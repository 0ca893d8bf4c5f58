import { Histogram, LATENCY_BUCKETS_S } from './histogram.js';

/** Where an error came from: the protocol (a rejected request) or the env (`info.error_type`). */
export type ErrorSource = 'protocol' | 'env';

/**
 * The server's counters, rendered in the Prometheus text exposition format by `/metrics`.
 * One instance per server (no global registry).
 *
 * @example
 * ```ts
 * const m = new ServerMetrics();
 * m.sessionOpened();
 * m.stepTook(0.002);
 * m.render(); // "# HELP sqlenv_sessions_active ..."
 * ```
 */
export class ServerMetrics {
  private active = 0;
  private opened = 0;
  private steps = 0;
  private resets = 0;
  private readonly errors = new Map<string, number>();
  private readonly closes = new Map<string, number>();
  private readonly flow = new Map<string, number>();
  private readonly unsentPeak = new Map<string, number>();
  private readonly stepLatency = new Histogram(LATENCY_BUCKETS_S);

  sessionOpened(): void {
    this.active++;
    this.opened++;
  }

  sessionClosed(reason: string): void {
    this.active--;
    this.closes.set(reason, (this.closes.get(reason) ?? 0) + 1);
  }

  resetDone(): void {
    this.resets++;
  }

  /** Count one step and its latency in seconds. */
  stepTook(seconds: number): void {
    this.steps++;
    this.stepLatency.observe(seconds);
  }

  errorSeen(source: ErrorSource, type: string): void {
    const key = `${source}\u0000${type}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }

  /** Count a backpressure event: a socket paused, or closed because its client stopped reading. */
  flowEvent(transport: 'ws' | 'http', event: 'pause' | 'stall_close'): void {
    const key = `${transport}\u0000${event}`;
    this.flow.set(key, (this.flow.get(key) ?? 0) + 1);
  }

  /** Record how many reply bytes one connection holds unsent now (the peak is exported). */
  unsentBytes(transport: 'ws' | 'http', bytes: number): void {
    if (bytes > (this.unsentPeak.get(transport) ?? 0)) this.unsentPeak.set(transport, bytes);
  }

  get activeSessions(): number {
    return this.active;
  }

  /** The Prometheus text format (version 0.0.4). */
  render(): string {
    const lines: string[] = [];
    const metric = (name: string, kind: string, help: string, samples: string[]) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${kind}`, ...samples);
    };
    metric('sqlenv_sessions_active', 'gauge', 'Sessions currently open.', [`sqlenv_sessions_active ${this.active}`]);
    metric('sqlenv_sessions_total', 'counter', 'Sessions opened since start.', [`sqlenv_sessions_total ${this.opened}`]);
    metric(
      'sqlenv_sessions_closed_total',
      'counter',
      'Sessions closed, by reason.',
      [...this.closes].map(([reason, n]) => `sqlenv_sessions_closed_total{reason="${escapeLabel(reason)}"} ${n}`),
    );
    metric('sqlenv_resets_total', 'counter', 'Episodes started.', [`sqlenv_resets_total ${this.resets}`]);
    metric('sqlenv_steps_total', 'counter', 'Steps taken.', [`sqlenv_steps_total ${this.steps}`]);
    metric(
      'sqlenv_errors_total',
      'counter',
      'Errors by source (protocol: rejected requests by code; env: info.error_type) and type.',
      [...this.errors].map(([key, n]) => {
        const [source, type] = key.split('\u0000') as [string, string];
        return `sqlenv_errors_total{source="${source}",type="${escapeLabel(type)}"} ${n}`;
      }),
    );
    metric(
      'sqlenv_backpressure_total',
      'counter',
      'Backpressure events by transport: pause (stopped reading a socket at its bounds), stall_close (closed a client that stopped reading).',
      [...this.flow].map(([key, n]) => {
        const [transport, event] = key.split('\u0000') as [string, string];
        return `sqlenv_backpressure_total{transport="${transport}",event="${event}"} ${n}`;
      }),
    );
    metric(
      'sqlenv_unsent_bytes_peak',
      'gauge',
      'The most reply bytes one connection has held unsent (written, not yet taken by the OS), by transport; maxUnsentBytes bounds it, plus one reply.',
      [...this.unsentPeak].map(([transport, n]) => `sqlenv_unsent_bytes_peak{transport="${transport}"} ${n}`),
    );
    const cumulative = this.stepLatency.cumulativeCounts();
    metric('sqlenv_step_latency_seconds', 'histogram', 'Time to run one step inside the server.', [
      ...this.stepLatency.bounds.map((b, i) => `sqlenv_step_latency_seconds_bucket{le="${b}"} ${cumulative[i]}`),
      `sqlenv_step_latency_seconds_bucket{le="+Inf"} ${cumulative[cumulative.length - 1]}`,
      `sqlenv_step_latency_seconds_sum ${this.stepLatency.sum}`,
      `sqlenv_step_latency_seconds_count ${this.stepLatency.count}`,
    ]);
    return `${lines.join('\n')}\n`;
  }
}

/** Escape a Prometheus label value (backslash, quote, newline). */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
