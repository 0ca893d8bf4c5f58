import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dashboardCharts } from '../../src/train/dashboard/chart-specs.js';
import { renderDashboardHtml, writeDashboard } from '../../src/train/dashboard/dashboard-page.js';
import { DashboardServer } from '../../src/train/dashboard/dashboard-server.js';
import { lineChartSvg, type ChartSpec } from '../../src/train/dashboard/line-chart-svg.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const records = [
  { kind: 'train', step: 1, time: 1, reward: 0.1, success: 0, 'reward_components/progress': 0.05, frac_reward_zero_std: 0.5, kl: 0, entropy: 2.1, 'tool_errors/parse_error': 1.5, 'tools/failure_frequency': 0.6, 'tools/malformed_frequency': 0.6 },
  { kind: 'train', step: 2, time: 2, reward: 0.3, success: 0.25, 'reward_components/progress': 0.1, frac_reward_zero_std: 0.25, kl: 0.01, entropy: 2.0, 'tool_errors/parse_error': 0.5, 'tool_errors/sql_error': 0.25, 'outcomes/found_gold_result': 0.5, 'tools/failure_frequency': 0.5, 'tools/malformed_frequency': 0.3 },
  { kind: 'eval', step: 2, time: 3, label: 'final', split: 'eval', episodes: 4, success: 0.5, mean_return: 0.4, 'outcomes/found_gold_result': 0.75 },
  { kind: 'trace', step: 2, time: 3, split: 'train', question: 'How many <singers>?', turns: [{ action: '<tool_call>{"name":"query"}</tool_call>', result: '| 6 |', reward: 0.02, advantage: 0.75 }], total_reward: 1.02, correct: true, advantage: 0.8 },
  { kind: 'event', step: 1, time: 1, event: 'alarm:zero_std_high', message: 'groups dead' },
];

const tempDir = useTempDirs('sqlenv-dash-');

describe('lineChartSvg', () => {
  it('draws one polyline per multi-point series, a dot for a single point, and escapes text', () => {
    const svg = lineChartSvg({ title: 'a < b', series: [{ name: 'x&y', points: [[1, 0], [2, 1]] }, { name: 'one', points: [[1, 0.5]] }] });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('a &lt; b');
    expect(svg).toContain('data-name="x&amp;y"');
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg.match(/<circle/g)).toHaveLength(1);
  });

  it('says so when there is no data', () => {
    expect(lineChartSvg({ title: 't', series: [] })).toContain('no data yet');
  });

  it('is self-contained: its source text re-evaluated alone gives the same SVG (the page embeds it)', () => {
    const spec: ChartSpec = { title: 'r', series: [{ name: 's', points: [[0, 1], [1, 2]] }] };
    const rebuilt = new Function(`return (${lineChartSvg.toString()})`)() as typeof lineChartSvg;
    expect(rebuilt(spec)).toBe(lineChartSvg(spec));
    const charts = new Function(`return (${dashboardCharts.toString()})`)() as typeof dashboardCharts;
    expect(charts(records)).toEqual(dashboardCharts(records));
  });
});

describe('dashboardCharts', () => {
  it('derives reward components, train vs held-out success, zero-std, KL, entropy and tool errors', () => {
    const c = dashboardCharts(records);
    expect(c['reward']!.series.map((s) => s.name)).toEqual(['total', 'progress']);
    expect(c['success']!.series.map((s) => s.name)).toEqual(['train (sampled)', 'eval (greedy)']);
    expect(c['tool_errors']!.series.map((s) => s.name)).toEqual(['parse_error', 'sql_error']);
    expect(c['tool_errors']!.series[1]!.points).toEqual([[2, 0.25]]);
    expect(c['tool_calls']!.series.map((s) => [s.name, s.points])).toEqual([['failed', [[1, 0.6], [2, 0.5]]], ['malformed', [[1, 0.6], [2, 0.3]]]]);
    expect(c['kl']!.series[0]!.points).toEqual([[1, 0], [2, 0.01]]);
    // Found the gold result vs answered: the gap is what answers threw away.
    expect(c['outcomes']!.series.map((s) => [s.name, s.points])).toEqual([
      ['train found_gold_result (sampled)', [[2, 0.5]]],
      ['eval found_gold_result (greedy)', [[2, 0.75]]],
    ]);
    expect(dashboardCharts(records.filter((r) => !Object.keys(r).some((k) => k.startsWith('outcomes/'))))['outcomes']!.series).toEqual([]);
  });

  it("names guided evaluations and draws their unguided figure beside them, and the sampler's gap to the policy", () => {
    const c = dashboardCharts([
      { kind: 'train', step: 1, time: 1, success: 0, 'sampling/sampling_logp_difference/mean': 0.3, 'sampling/sampling_logp_difference/max': 4, 'sampling/corrected_share': 0.1 },
      { kind: 'eval', step: 1, time: 2, label: 'grpo', split: 'eval', decoding: 'guided', success: 0.9, unguided_success: 0.7 },
    ]);
    expect(c['success']!.series.map((s) => [s.name, s.points])).toEqual([
      ['train (sampled)', [[1, 0]]],
      ['eval (greedy, guided)', [[1, 0.9]]],
      ['eval (greedy, unguided)', [[1, 0.7]]],
    ]);
    expect(c['sampler']!.series.map((s) => [s.name, s.points])).toEqual([
      ['mean |log π − log q|', [[1, 0.3]]],
      ['max |log π − log q|', [[1, 4]]],
      ['share truncated or masked', [[1, 0.1]]],
    ]);
  });
});

describe('dashboard page', () => {
  it('is one self-contained file with the metrics embedded safely', () => {
    const html = renderDashboardHtml(records, { title: 'run', live: false });
    expect(html).not.toMatch(/<script[^>]*\bsrc=/);
    expect(html).not.toMatch(/<link[^>]*stylesheet/);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    // "</" inside the embedded JSON must not close the script element.
    expect(html).toContain('\\u003ctool_call>');
  });

  it('writes dashboard.html and SVG exports of the key plots', async () => {
    const dir = tempDir();
    await writeDashboard(dir, records, { title: 'run', live: true });
    for (const f of ['dashboard.html', 'plots/reward.svg', 'plots/success.svg', 'plots/outcomes.svg', 'plots/zero_std.svg', 'plots/kl.svg', 'plots/entropy.svg', 'plots/tool_errors.svg', 'plots/tool_calls.svg']) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    expect(existsSync(join(dir, 'plots/sft_loss.svg'))).toBe(false);
  });

  it('DashboardServer serves the live page, the metrics and the plots', async () => {
    const dir = tempDir();
    await writeFile(join(dir, 'metrics.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await writeDashboard(dir, records, { title: 'run', live: false });
    const server = new DashboardServer(dir);
    try {
      const url = await server.listen(0);
      const page = await (await fetch(url)).text();
      expect(page).toContain('data-live="true"');
      expect(page).toContain('How many');
      expect((await (await fetch(url + 'metrics.jsonl')).text()).split('\n').filter(Boolean)).toHaveLength(records.length);
      expect((await fetch(url + 'plots/reward.svg')).headers.get('content-type')).toBe('image/svg+xml');
      expect((await fetch(url + 'plots/../../etc/passwd')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  it.skipIf(!chromium)('renders its charts in headless Chromium', async () => {
    const dir = tempDir();
    await writeDashboard(dir, records, { title: 'run', live: false });
    const { stdout } = await promisify(execFile)(chromium!, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(dir, 'profile')}`, '--dump-dom', `file://${join(dir, 'dashboard.html')}`], { timeout: 45_000 });
    expect(stdout).toMatch(/data-rendered="\d+"/);
    expect(stdout).toContain('id="chart-reward"');
    expect((stdout.match(/<polyline class="series"/g) ?? []).length).toBeGreaterThanOrEqual(5);
    expect(stdout).toContain('How many &lt;singers&gt;?');
    expect(stdout).toContain('alarm:zero_std_high');
    expect(stdout).toContain('adv. 0.75'); // a turn's own advantage under turn-level credit
  });
});
