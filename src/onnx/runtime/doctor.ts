/**
 * What this machine offers the runtime: versions, each execution provider's availability (with
 * onnxruntime's reason when it does not load), threads, memory, and the evidence WebGPU and CUDA
 * depend on (Vulkan loader, ICD files, GPU device nodes). `sqlenv doctor` prints it; users paste
 * it into bug reports, so it must never throw on a machine that lacks something.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, freemem, totalmem } from 'node:os';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { cpuVectorExtension } from '../../base/cpu-features.js';
import { ProviderUnavailableError } from './errors.js';
import { AUTO_ORDER, probeProvider, type ProviderName } from './providers.js';

/** One provider's probe outcome. */
export interface ProviderReport {
  readonly provider: ProviderName;
  /** Whether onnxruntime-node ships this provider's library in its npm package. */
  readonly bundled: boolean;
  readonly available: boolean;
  /** onnxruntime's reason when it did not load. */
  readonly reason?: string;
  /** What to do about it. */
  readonly hint?: string;
}

/** Files and devices a GPU provider needs, as found on this machine. */
export interface GpuEvidence {
  /** Vulkan loader libraries found in the usual library directories. */
  readonly vulkanLoaders: readonly string[];
  /** Vulkan ICD manifests (each names a driver library). */
  readonly vulkanIcds: readonly string[];
  /** `/dev/nvidia*` and `/dev/dri/*` device nodes. */
  readonly deviceNodes: readonly string[];
  /** `VK_ICD_FILENAMES` / `VK_DRIVER_FILES` when set. */
  readonly icdOverride?: string;
}

/** Everything `sqlenv doctor` reports. */
export interface DoctorReport {
  readonly node: string;
  readonly platform: string;
  readonly onnxruntime: { readonly node: string; readonly common: string };
  readonly providers: readonly ProviderReport[];
  /** What provider `'auto'` resolves to here, or undefined when none loads. */
  readonly autoPick?: ProviderName;
  readonly threads: { readonly logicalCpus: number; readonly available: number; readonly cpuModel: string };
  readonly memory: { readonly totalBytes: number; readonly freeBytes: number };
  readonly gpu: GpuEvidence;
}

const LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib', '/lib/x86_64-linux-gnu'];
const ICD_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/usr/local/nvidia/share/vulkan/icd.d'];

function listing(dir: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(dir).filter(keep).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/**
 * The Vulkan loader, ICD manifests and GPU device nodes present on this machine.
 *
 * @example
 * ```ts
 * const { vulkanLoaders } = gpuEvidence();
 * if (vulkanLoaders.length === 0) console.log('no libvulkan.so.1: WebGPU cannot start');
 * ```
 */
export function gpuEvidence(env: NodeJS.ProcessEnv = process.env): GpuEvidence {
  const ldPaths = (env['LD_LIBRARY_PATH'] ?? '').split(':').filter(Boolean);
  const vulkanLoaders = [...new Set([...ldPaths, ...LIB_DIRS].flatMap((d) => listing(d, (n) => /^libvulkan\.so(\.\d+)*$/.test(n))))];
  const vulkanIcds = ICD_DIRS.flatMap((d) => listing(d, (n) => n.endsWith('.json')));
  const deviceNodes = [...listing('/dev', (n) => n.startsWith('nvidia')), ...listing('/dev/dri', () => true)];
  const icdOverride = env['VK_ICD_FILENAMES'] ?? env['VK_DRIVER_FILES'];
  return { vulkanLoaders, vulkanIcds, deviceNodes, ...(icdOverride ? { icdOverride } : {}) };
}

function onnxruntimeVersions(): { node: string; common: string } {
  const versions = (ort.env as { versions?: { node?: string; common?: string } }).versions ?? {};
  let node = versions.node;
  if (!node) {
    try {
      const require = createRequire(import.meta.url);
      node = (JSON.parse(readFileSync(require.resolve('onnxruntime-node/package.json'), 'utf8')) as { version: string }).version;
    } catch {
      node = 'unknown';
    }
  }
  return { node, common: versions.common ?? 'unknown' };
}

/**
 * Probe every provider (in `'auto'` order) and gather the machine facts.
 *
 * @example
 * ```ts
 * const report = await diagnoseRuntime();
 * console.log(formatDoctorReport(report));
 * ```
 */
export async function diagnoseRuntime(probe: (p: ProviderName) => Promise<void> = probeProvider): Promise<DoctorReport> {
  const bundled = new Map(ort.listSupportedBackends().map((b) => [b.name, b.bundled] as const));
  const providers: ProviderReport[] = [];
  for (const provider of AUTO_ORDER) {
    try {
      await probe(provider);
      providers.push({ provider, bundled: bundled.get(provider) ?? false, available: true });
    } catch (e) {
      const reason = e instanceof ProviderUnavailableError ? e.reason : e instanceof Error ? e.message : String(e);
      const hint = e instanceof ProviderUnavailableError ? e.hint : undefined;
      providers.push({ provider, bundled: bundled.get(provider) ?? false, available: false, reason, ...(hint ? { hint } : {}) });
    }
  }
  const autoPick = providers.find((p) => p.available)?.provider;
  const cpuList = cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    onnxruntime: onnxruntimeVersions(),
    providers,
    ...(autoPick ? { autoPick } : {}),
    threads: { logicalCpus: cpuList.length, available: availableParallelism(), cpuModel: `${cpuList[0]?.model.trim() ?? 'unknown'} (${cpuVectorExtension()})` },
    memory: { totalBytes: totalmem(), freeBytes: freemem() },
    gpu: gpuEvidence(),
  };
}

const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/**
 * The report as the plain text `sqlenv doctor` prints.
 *
 * @example
 * ```ts
 * console.log(formatDoctorReport(await diagnoseRuntime()));
 * ```
 */
export function formatDoctorReport(r: DoctorReport): string {
  const lines = [
    `node          ${r.node} (${r.platform})`,
    `onnxruntime   onnxruntime-node ${r.onnxruntime.node}, onnxruntime-common ${r.onnxruntime.common}`,
    `threads       ${r.threads.available} available of ${r.threads.logicalCpus} logical CPUs (${r.threads.cpuModel}); sessions use all of them unless intraOpThreads is set`,
    `memory        ${gib(r.memory.totalBytes)} total, ${gib(r.memory.freeBytes)} free`,
    'providers',
  ];
  for (const p of r.providers) {
    const state = p.available ? 'available' : 'unavailable';
    lines.push(`  ${p.provider.padEnd(7)} ${state}${p.bundled ? '' : ' (not bundled with onnxruntime-node)'}`);
    if (p.reason) lines.push(`          reason: ${p.reason}`);
    if (p.hint) lines.push(`          fix:    ${p.hint}`);
  }
  lines.push(`--device auto ${r.autoPick ? `picks ${r.autoPick}` : 'finds no provider that loads'} (order: ${AUTO_ORDER.join(' → ')})`);
  const g = r.gpu;
  lines.push('gpu evidence');
  lines.push(`  vulkan loader  ${g.vulkanLoaders.length ? g.vulkanLoaders.join(', ') : 'none found (libvulkan.so.1; Debian: libvulkan1)'}`);
  lines.push(`  vulkan ICDs    ${g.vulkanIcds.length ? g.vulkanIcds.join(', ') : 'none found'}${g.icdOverride ? ` (override: ${g.icdOverride})` : ''}`);
  lines.push(`  device nodes   ${g.deviceNodes.length ? g.deviceNodes.join(', ') : 'none (/dev/nvidia*, /dev/dri/*)'}`);
  return lines.join('\n');
}
