/**
 * The run dashboard: one self-contained HTML file (no CDN, no external assets) whose inline
 * script draws SVG charts from the run's metrics. Opened from disk it shows the metrics embedded
 * at write time (and reloads itself while the run is live); served by `sqlenv dashboard` it
 * polls `metrics.jsonl` and redraws.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../checkpoint/durable-fs.js';
import { dashboardCharts, type DashboardRecord } from './chart-specs.js';
import { lineChartSvg } from './line-chart-svg.js';

/** Options of {@link renderDashboardHtml}. */
export interface DashboardPageOptions {
  title: string;
  /** True while training runs: the page refreshes itself. */
  live: boolean;
}

/** Makes JSON safe inside a `<script>` element. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const STYLE = `
body{font-family:system-ui,sans-serif;margin:16px;color:#111827;background:#f9fafb}
h1{font-size:20px;margin:0 0 4px} .sub{color:#6b7280;margin-bottom:12px}
#charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:12px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:6px;padding:6px}
table{border-collapse:collapse;font-size:12px;width:100%;background:#fff}
td,th{border:1px solid #e5e7eb;padding:4px;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;margin:0;font-size:11px;max-height:140px;overflow:auto}
.ok{color:#16a34a}.bad{color:#dc2626}.adv{color:#6b7280} .event{font-family:monospace;font-size:12px;white-space:pre-wrap}
`;

// The page script. `lineChartSvg` and `dashboardCharts` are injected from their TypeScript
// implementations so the browser draws exactly what the SVG exports show.
const PAGE_SCRIPT = `
const esc = (s) => String(s).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;');
function render(records) {
  const charts = dashboardCharts(records);
  document.getElementById('charts').innerHTML = Object.entries(charts)
    .filter(([, spec]) => spec.series.some((s) => s.points.length > 0))
    .map(([id, spec]) => '<div class="card" id="chart-' + id + '">' + lineChartSvg(spec) + '</div>').join('');
  const train = records.filter((r) => r.kind === 'train');
  const last = train[train.length - 1];
  document.getElementById('summary').textContent = last
    ? 'GRPO step ' + last.step + ' · reward ' + Number(last.reward).toFixed(3) + ' · success ' + (100 * Number(last.success)).toFixed(1) + '% · ' + records.length + ' records'
    : records.length + ' records (no GRPO step yet)';
  const evals = records.filter((r) => r.kind === 'eval');
  document.getElementById('evals').innerHTML = evals.length ? '<table><tr><th>step</th><th>label</th><th>split</th><th>episodes</th><th>success</th><th>mean return</th></tr>' +
    evals.map((r) => '<tr><td>' + r.step + '</td><td>' + esc(r.label) + '</td><td>' + esc(r.split) + '</td><td>' + r.episodes + '</td><td>' + (100 * r.success).toFixed(1) + '%</td><td>' + Number(r.mean_return).toFixed(3) + '</td></tr>').join('') + '</table>' : '<i>no evaluation yet</i>';
  const events = records.filter((r) => r.kind === 'event');
  document.getElementById('events').innerHTML = events.slice(-30).map((r) => '<div class="event">[step ' + r.step + '] ' + esc(r.event) + ': ' + esc(r.message) + '</div>').join('') || '<i>none</i>';
  const traces = records.filter((r) => r.kind === 'trace').slice(-12).reverse();
  document.getElementById('traces').innerHTML = traces.length ? '<table><tr><th>step</th><th>question</th><th>turns (action → result, reward)</th><th>reward</th><th>adv.</th></tr>' +
    traces.map((t) => '<tr><td>' + t.step + ' ' + esc(t.split || '') + '</td><td>' + esc(t.question) + '</td><td>' +
      (t.turns || []).map((u, i) => '<div><b>' + (i + 1) + '.</b> <pre>' + esc(u.action) + '</pre><pre>→ ' + esc(u.result) + '</pre> <span class="' + (u.error_type ? 'bad' : 'ok') + '">' +
        Number(u.reward).toFixed(3) + (u.error_type ? ' ' + esc(u.error_type) : '') + '</span>' + (u.advantage == null ? '' : ' <span class="adv">adv. ' + Number(u.advantage).toFixed(2) + '</span>') + '</div>').join('') +
      '</td><td class="' + (t.correct ? 'ok' : 'bad') + '">' + Number(t.total_reward).toFixed(3) + (t.correct ? ' ✓' : ' ✗') + '</td><td>' + (t.advantage == null ? '' : Number(t.advantage).toFixed(2)) + '</td></tr>').join('') + '</table>' : '<i>no traces yet</i>';
  document.body.dataset.rendered = String(Date.now());
}
const embedded = JSON.parse(document.getElementById('metrics').textContent);
const live = document.body.dataset.live === 'true';
render(embedded);
if (location.protocol.startsWith('http')) {
  const poll = () => fetch('metrics.jsonl', { cache: 'no-store' }).then((r) => r.ok ? r.text() : Promise.reject(r.status)).then((text) => {
    const recs = [];
    for (const line of text.split('\\n')) { if (!line.trim()) continue; try { recs.push(JSON.parse(line)); } catch (e) {} }
    render(recs);
  }).catch(() => {}).finally(() => setTimeout(poll, 3000));
  poll();
} else if (live) {
  setTimeout(() => location.reload(), 10000);
}
`;

/**
 * The dashboard page for the given records.
 *
 * @example
 * ```ts
 * const html = renderDashboardHtml([{ kind: 'train', step: 1, time: 1, reward: 0.4 }], { title: 'demo', live: false });
 * ```
 */
export function renderDashboardHtml(records: DashboardRecord[], options: DashboardPageOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${options.title.replace(/</g, '&lt;')} — sqlenv dashboard</title>
<style>${STYLE}</style></head>
<body data-live="${options.live}">
<h1>${options.title.replace(/</g, '&lt;')}</h1>
<div class="sub" id="summary"></div>
<div id="charts"></div>
<h2>Evaluations</h2><div id="evals"></div>
<h2>Events and alarms</h2><div id="events"></div>
<h2>Episode traces</h2><div id="traces"></div>
<script type="application/json" id="metrics">${scriptSafeJson(records)}</script>
<script>
// Transpilers that keep function names (esbuild, as used by tsx) wrap closures in __name(); a no-op here.
const __name = (fn) => fn;
const lineChartSvg = ${lineChartSvg.toString()};
const dashboardCharts = ${dashboardCharts.toString()};
${PAGE_SCRIPT}
</script>
</body></html>
`;
}

/**
 * Writes `dashboard.html` (atomically, so a browser never reads half a page) and the SVG
 * exports `plots/<chart>.svg` into the run directory.
 *
 * @example
 * ```ts
 * await writeDashboard('runs/demo', records, { title: 'GRPO on SQLEnv', live: true });
 * ```
 */
export async function writeDashboard(runDir: string, records: DashboardRecord[], options: DashboardPageOptions): Promise<void> {
  await mkdir(join(runDir, 'plots'), { recursive: true });
  await writeFileAtomic(join(runDir, 'dashboard.html'), renderDashboardHtml(records, options));
  for (const [id, spec] of Object.entries(dashboardCharts(records))) {
    if (spec.series.some((s) => s.points.length > 0)) await writeFile(join(runDir, 'plots', `${id}.svg`), lineChartSvg(spec));
  }
}
