import { describe, expect, it } from 'vitest';
import { escapeLabel, ServerMetrics } from '../../../src/remote/server/metrics.js';

describe('ServerMetrics', () => {
  it('renders sessions, steps, errors by source and a latency histogram in Prometheus text', () => {
    const m = new ServerMetrics();
    m.sessionOpened();
    m.sessionOpened();
    m.sessionClosed('idle');
    m.resetDone();
    m.stepTook(0.0003);
    m.stepTook(0.2);
    m.errorSeen('env', 'sql_error');
    m.errorSeen('env', 'sql_error');
    m.errorSeen('protocol', 'INVALID_JSON');
    const text = m.render();
    expect(text).toMatch(/^# TYPE sqlenv_sessions_active gauge$/m);
    expect(text).toMatch(/^sqlenv_sessions_active 1$/m);
    expect(text).toMatch(/^sqlenv_sessions_total 2$/m);
    expect(text).toMatch(/^sqlenv_sessions_closed_total\{reason="idle"\} 1$/m);
    expect(text).toMatch(/^sqlenv_steps_total 2$/m);
    expect(text).toMatch(/^sqlenv_errors_total\{source="env",type="sql_error"\} 2$/m);
    expect(text).toMatch(/^sqlenv_errors_total\{source="protocol",type="INVALID_JSON"\} 1$/m);
    expect(text).toMatch(/^sqlenv_step_latency_seconds_bucket\{le="0.0005"\} 1$/m);
    expect(text).toMatch(/^sqlenv_step_latency_seconds_bucket\{le="\+Inf"\} 2$/m);
    expect(text).toMatch(/^sqlenv_step_latency_seconds_count 2$/m);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('escapes label values', () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });
});
