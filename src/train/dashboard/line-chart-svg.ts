/**
 * A dependency-free SVG line chart. The function is self-contained on purpose — it references
 * nothing outside its own body — because the dashboard page embeds its source text
 * (`lineChartSvg.toString()`) to draw the same charts in the browser, and the trainer calls it
 * directly to export the SVG files. One implementation, two places.
 */

/** One line of a chart. */
export interface ChartSeries {
  name: string;
  points: [number, number][];
}

/** What to draw. */
export interface ChartSpec {
  title: string;
  series: ChartSeries[];
  width?: number;
  height?: number;
  /** Fixed y-range; otherwise from the data. */
  yMin?: number;
  yMax?: number;
  xLabel?: string;
}

/**
 * Renders a chart as a standalone SVG document string (axes, ticks, legend, one polyline per
 * series; single points become dots).
 *
 * @example
 * ```ts
 * const svg = lineChartSvg({ title: 'reward', series: [{ name: 'train', points: [[1, 0.1], [2, 0.3]] }] });
 * svg.startsWith('<svg'); // true
 * ```
 */
export function lineChartSvg(spec: ChartSpec): string {
  const palette = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4b5563', '#65a30d'];
  const W = spec.width ?? 560;
  const H = spec.height ?? 260;
  const legendRows = Math.max(1, Math.ceil(spec.series.length / 4));
  const m = { l: 52, r: 12, t: 28, b: 40 + legendRows * 14 };
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const fmt = (v: number) => {
    const a = Math.abs(v);
    if (a !== 0 && (a < 0.01 || a >= 10000)) return v.toExponential(1);
    return String(Math.round(v * 1000) / 1000);
  };
  const pts = spec.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
  let x0 = Math.min(...pts.map((p) => p[0]));
  let x1 = Math.max(...pts.map((p) => p[0]));
  let y0 = spec.yMin ?? Math.min(...pts.map((p) => p[1]));
  let y1 = spec.yMax ?? Math.max(...pts.map((p) => p[1]));
  if (!pts.length) {
    x0 = 0; x1 = 1; y0 = spec.yMin ?? 0; y1 = spec.yMax ?? 1;
  }
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  if (y1 === y0) { y0 -= 0.5; y1 += 0.5; }
  const px = (x: number) => m.l + ((x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const py = (y: number) => H - m.b - ((y - y0) / (y1 - y0)) * (H - m.t - m.b);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${m.l}" y="16" font-size="13" font-weight="bold">${esc(spec.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const y = y0 + ((y1 - y0) * i) / 4;
    out.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${py(y).toFixed(1)}" y2="${py(y).toFixed(1)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${m.l - 4}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end" fill="#374151">${fmt(y)}</text>`);
    const x = x0 + ((x1 - x0) * i) / 4;
    out.push(`<text x="${px(x).toFixed(1)}" y="${H - m.b + 14}" text-anchor="middle" fill="#374151">${fmt(x)}</text>`);
  }
  out.push(`<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${H - m.b}" stroke="#6b7280"/>`);
  out.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}" stroke="#6b7280"/>`);
  if (spec.xLabel) out.push(`<text x="${(W + m.l) / 2}" y="${H - m.b + 28}" text-anchor="middle" fill="#374151">${esc(spec.xLabel)}</text>`);
  spec.series.forEach((s, i) => {
    const color = palette[i % palette.length];
    const good = s.points.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
    if (good.length === 1) {
      out.push(`<circle class="series" data-name="${esc(s.name)}" cx="${px(good[0]![0]).toFixed(1)}" cy="${py(good[0]![1]).toFixed(1)}" r="3" fill="${color}"/>`);
    } else if (good.length > 1) {
      const d = good.map((p) => `${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`).join(' ');
      out.push(`<polyline class="series" data-name="${esc(s.name)}" points="${d}" fill="none" stroke="${color}" stroke-width="1.8"/>`);
    }
    const lx = m.l + (i % 4) * ((W - m.l) / 4);
    const ly = H - m.b + 44 + Math.floor(i / 4) * 14;
    out.push(`<rect x="${lx}" y="${ly - 8}" width="10" height="3" fill="${color}"/><text x="${lx + 14}" y="${ly - 3}" fill="#111827">${esc(s.name)}</text>`);
  });
  if (!pts.length) out.push(`<text x="${W / 2}" y="${H / 2}" text-anchor="middle" fill="#9ca3af">no data yet</text>`);
  out.push('</svg>');
  return out.join('');
}
