/** In-thread and worker sessions are interchangeable behind the one `Session` interface. */
import { describe, expect, it } from 'vitest';
import { Graph, OnnxSession, WorkerSession, hostTensor, type Session } from './onnx-api.js';

/** Code written against the interface: computes the selected output of any session, then closes it. */
async function runAndClose(session: Session, outputs: readonly string[]): Promise<number[][]> {
  try {
    const out = await session.run({ x: hostTensor('float32', [2, 2], Float32Array.from([1, -2, 3, -4])) }, { outputs });
    return outputs.map((name) => Array.from(out[name]!.data as Float32Array));
  } finally {
    await session.close();
  }
}

describe('Session', () => {
  it('OnnxSession and WorkerSession give the same outputs, and honour the output selection', async () => {
    const g = new Graph('two-outputs');
    const x = g.input('x', 'float32', [2, 2]);
    g.output(x.relu(), 'pos');
    g.output(x.mul(x), 'sq');
    const sessions: Session[] = [await OnnxSession.create(g), await WorkerSession.create(g)];
    for (const s of sessions) {
      expect(s.inputNames).toEqual(['x']);
      expect(s.outputNames).toEqual(['pos', 'sq']);
    }
    const [local, worker] = [await runAndClose(sessions[0]!, ['sq']), await runAndClose(sessions[1]!, ['sq'])];
    expect(local).toEqual([[1, 4, 9, 16]]);
    expect(worker).toEqual(local);
  });
});
