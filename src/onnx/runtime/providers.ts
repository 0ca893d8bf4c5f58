/**
 * Execution-provider selection. onnxruntime throws when a requested provider cannot load (even
 * when 'cpu' is listed after it), so each candidate is probed with a one-node model and the
 * first that loads wins; the reasons of those that did not are kept and reported.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import { Graph } from '../graph/graph.js';
import { encodeModel } from '../proto/model.js';
import { ProviderUnavailableError } from './errors.js';

/** An execution provider this package can drive. */
export type ProviderName = 'cpu' | 'webgpu' | 'cuda';
/** A provider, or `'auto'`: the first of cuda → webgpu → cpu that loads. */
export type ProviderChoice = ProviderName | 'auto';

/** The order `'auto'` tries providers in. */
export const AUTO_ORDER: readonly ProviderName[] = ['cuda', 'webgpu', 'cpu'];

/** The outcome of provider selection. */
export interface ProviderSelection {
  /** The provider sessions will use. */
  readonly provider: ProviderName;
  /** Providers tried first that could not load, with the reason (empty when the first choice loaded). */
  readonly skipped: readonly ProviderUnavailableError[];
}

/** What to do for each provider that fails to load. */
export function providerHint(provider: ProviderName, reason: string): string {
  switch (provider) {
    case 'cuda':
      return cudaLibrariesPresent()
        ? 'the CUDA provider libraries are installed but did not load: CUDA 12 and cuDNN 9 must be on the library path (LD_LIBRARY_PATH) and a GPU visible'
        : "onnxruntime-node does not bundle its CUDA provider. With internet access and CUDA 12 + cuDNN 9 installed, fetch it with `ONNXRUNTIME_NODE_INSTALL=cuda12 node node_modules/onnxruntime-node/script/install.js` (npm does not run that script here: package.json allowScripts); or choose provider 'auto' or 'cpu'";
    case 'webgpu':
      return /vulkan|adapter/i.test(reason)
        ? 'WebGPU runs on Dawn over Vulkan: install a Vulkan loader and GPU driver ICD (Debian: `apt-get install libvulkan1 mesa-vulkan-drivers`, or the NVIDIA driver) on a machine with a GPU, or choose provider \'auto\' or \'cpu\''
        : "WebGPU could not start; choose provider 'auto' or 'cpu'";
    case 'cpu':
      return 'the CPU provider is always bundled; this points at a broken onnxruntime-node install (reinstall it)';
  }
}

function cudaLibrariesPresent(): boolean {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve('onnxruntime-node/package.json'));
  return existsSync(join(pkg, 'bin', 'napi-v6', `${process.platform}`, process.arch, 'libonnxruntime_providers_cuda.so'));
}

/** onnxruntime's message without its source-location and assertion prefix. */
export function cleanReason(message: string): string {
  const first = message.trim().split('\n')[0]!;
  return first.replace(/^\/onnxruntime_src\/\S+ .*? was false\.\s*/, '');
}

/** The smallest model that makes onnxruntime initialise a provider. */
function probeModel(): Uint8Array {
  const g = new Graph('probe');
  g.output(g.input('x', 'float32', [1]).add(1), 'y');
  return encodeModel(g).model;
}

/**
 * Try to create a session on `provider`; resolves when it loads, rejects with a
 * {@link ProviderUnavailableError} carrying onnxruntime's reason and a hint otherwise.
 *
 * @example
 * ```ts
 * await probeProvider('webgpu').catch((e: ProviderUnavailableError) => console.warn(e.message));
 * ```
 */
export async function probeProvider(provider: ProviderName): Promise<void> {
  if (provider === 'cuda' && !cudaLibrariesPresent()) {
    // Asking onnxruntime would fail the same way ("Failed to load shared library"), after
    // printing an error of its own; the missing file says it more precisely.
    const reason = 'libonnxruntime_providers_cuda.so is not installed beside the onnxruntime-node binding';
    throw new ProviderUnavailableError(provider, reason, providerHint(provider, reason));
  }
  try {
    const session = await ort.InferenceSession.create(probeModel(), { executionProviders: [provider], logSeverityLevel: 4 });
    await session.release();
  } catch (e) {
    const reason = cleanReason(e instanceof Error ? e.message : String(e));
    throw new ProviderUnavailableError(provider, reason, providerHint(provider, reason));
  }
}

/**
 * Resolve a provider choice to a provider that loads. An explicit provider that fails throws
 * its {@link ProviderUnavailableError}; `'auto'` falls back along {@link AUTO_ORDER} and reports
 * every skipped provider (the caller decides how loudly).
 *
 * @example
 * ```ts
 * const { provider, skipped } = await selectProvider('auto');
 * for (const s of skipped) console.warn(s.message);
 * ```
 */
export async function selectProvider(choice: ProviderChoice, probe: (p: ProviderName) => Promise<void> = probeProvider): Promise<ProviderSelection> {
  if (choice !== 'auto') {
    await probe(choice);
    return { provider: choice, skipped: [] };
  }
  const skipped: ProviderUnavailableError[] = [];
  for (const p of AUTO_ORDER) {
    try {
      await probe(p);
      return { provider: p, skipped };
    } catch (e) {
      if (!(e instanceof ProviderUnavailableError)) throw e;
      skipped.push(e);
    }
  }
  throw skipped[skipped.length - 1]!;
}
