/**
 * `sqlenv doctor`: the report names every provider with its outcome, says what `auto` picks,
 * and carries onnxruntime's reason and a fix for each provider that does not load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/doctor.js';
import { ProviderUnavailableError } from '../../src/onnx/runtime/errors.js';
import { diagnoseRuntime, formatDoctorReport, gpuEvidence, type DoctorReport } from '../../src/onnx/runtime/doctor.js';
import type { ProviderName } from '../../src/onnx/runtime/providers.js';

afterEach(() => vi.restoreAllMocks());

const failing = (down: readonly ProviderName[]) => async (p: ProviderName): Promise<void> => {
  if (down.includes(p)) throw new ProviderUnavailableError(p, `${p} says no`, `install ${p}`);
};

describe('diagnoseRuntime', () => {
  it('reports each provider in auto order with its reason, and what auto picks', async () => {
    const r = await diagnoseRuntime(failing(['cuda']));
    expect(r.providers.map((p) => p.provider)).toEqual(['cuda', 'webgpu', 'cpu']);
    expect(r.providers[0]).toMatchObject({ available: false, reason: 'cuda says no', hint: 'install cuda' });
    expect(r.providers[1]!.available).toBe(true);
    expect(r.autoPick).toBe('webgpu');
    expect(r.onnxruntime.node).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.node).toBe(process.version);
    expect(r.threads.available).toBeGreaterThan(0);
    expect(r.memory.totalBytes).toBeGreaterThan(0);
  });

  it('has no auto pick when nothing loads, and says so', async () => {
    const r = await diagnoseRuntime(failing(['cuda', 'webgpu', 'cpu']));
    expect(r.autoPick).toBeUndefined();
    const text = formatDoctorReport(r);
    expect(text).toContain('--device auto finds no provider that loads');
    expect(text).toContain('reason: webgpu says no');
    expect(text).toContain('fix:    install webgpu');
  });

  it('finds Vulkan loaders on LD_LIBRARY_PATH and reports an ICD override', () => {
    const g = gpuEvidence({ LD_LIBRARY_PATH: '/nonexistent-dir', VK_ICD_FILENAMES: '/x/nvidia_icd.json' });
    expect(g.icdOverride).toBe('/x/nvidia_icd.json');
    expect(Array.isArray(g.vulkanLoaders)).toBe(true);
  });
});

describe('sqlenv doctor', () => {
  it('--json prints the report, exit 0 when a provider loads (cpu always does here)', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    const code = await run(['--json']);
    expect(code).toBe(0);
    const report = JSON.parse(lines.join('\n')) as DoctorReport;
    expect(report.providers.find((p) => p.provider === 'cpu')?.available).toBe(true);
    expect(report.autoPick).toBeDefined();
  });

  it('prints the text report with the auto pick line', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    expect(await run([])).toBe(0);
    expect(lines.join('\n')).toMatch(/--device auto picks (cpu|webgpu|cuda)/);
  });

  it('rejects an unknown flag with exit 2', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run(['--bogus'])).toBe(2);
  });
});
