/**
 * `sqlenv doctor`: the runtime facts a bug report needs (Node and onnxruntime versions, each
 * execution provider's availability and why not, threads, memory, what `--device auto` picks,
 * and the GPU driver evidence WebGPU/CUDA depend on).
 */
import { diagnoseRuntime, formatDoctorReport } from '../onnx/runtime/doctor.js';
import { parseCommandArgs } from './command-args.js';

const USAGE = `usage: sqlenv doctor [--json]
  prints Node/onnxruntime versions, each execution provider's availability (and why not),
  threads, memory, what --device auto picks, and the GPU evidence (Vulkan loader, ICDs, devices)`;

/** Runs the command; exit code 0 when some provider loads, 1 when none does. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('doctor', USAGE, {
    args: argv,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (!parsed.ok) return parsed.exitCode;
  const report = await diagnoseRuntime();
  console.log(parsed.args.values.json ? JSON.stringify(report, null, 2) : formatDoctorReport(report));
  return report.autoPick ? 0 : 1;
}
