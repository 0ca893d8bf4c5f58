import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoint, SafetensorsError, SafetensorsFile, floatTensor, writeSafetensors } from '../../src/lm/index.js';
import { bf16BitsToFloat, floatToBf16Bits } from '../../src/lm/safetensors/dtype.js';
import { floatToHalfBits, halfBitsToFloat } from '../../src/base/half-float.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tmp = useTempDirs('lm-st-');

describe('float conversions', () => {
  it('converts half precision exactly for representable values and rounds to nearest even', () => {
    for (const v of [0, 1, -2, 0.5, 65504, 2 ** -24, 2 ** -14, 3.140625]) {
      expect(halfBitsToFloat(floatToHalfBits(v))).toBe(v);
    }
    expect(floatToHalfBits(1)).toBe(0x3c00);
    expect(floatToHalfBits(70000)).toBe(0x7c00); // overflow → +Infinity
    // 1 + 2^-11 lies exactly between two halves; ties go to the even mantissa (1.0).
    expect(halfBitsToFloat(floatToHalfBits(1 + 2 ** -11))).toBe(1);
    expect(halfBitsToFloat(floatToHalfBits(1 + 3 * 2 ** -11))).toBe(1 + 2 ** -9);
    expect(Number.isNaN(halfBitsToFloat(floatToHalfBits(NaN)))).toBe(true);
  });

  it('rounds bfloat16 to nearest even and keeps NaN', () => {
    expect(floatToBf16Bits(1)).toBe(0x3f80);
    expect(bf16BitsToFloat(0x3f80)).toBe(1);
    expect(bf16BitsToFloat(floatToBf16Bits(1 + 2 ** -8))).toBe(1); // tie → even
    expect(bf16BitsToFloat(floatToBf16Bits(1 + 3 * 2 ** -8))).toBe(1 + 2 ** -6);
    expect(Number.isNaN(bf16BitsToFloat(floatToBf16Bits(NaN)))).toBe(true);
  });
});

describe('safetensors files', () => {
  const tensors = new Map([
    ['a.weight', floatTensor([2, 3], new Float32Array([1, -2, 0.5, 3.25, 1e-3, -7]))],
    ['b', floatTensor([], new Float32Array([42]))],
    ['c.bias', floatTensor([4], new Float32Array([0.1, 0.2, 0.3, 0.4]))],
  ]);

  for (const dtype of ['F32', 'F16', 'BF16'] as const) {
    it(`round-trips ${dtype}`, async () => {
      const path = join(tmp(), 'm.safetensors');
      await writeSafetensors(path, tensors, { dtype, metadata: { format: 'pt' } });
      const bytes = readFileSync(path);
      const headerLength = Number(bytes.readBigUInt64LE(0));
      expect((8 + headerLength) % 8).toBe(0);
      const file = await SafetensorsFile.open(path);
      try {
        expect(file.names()).toEqual(['a.weight', 'b', 'c.bias']);
        expect(file.metadata).toEqual({ format: 'pt' });
        expect(file.entry('a.weight')?.dtype).toBe(dtype);
        const tolerance = dtype === 'F32' ? 0 : dtype === 'F16' ? 1e-3 : 1e-2;
        for (const [name, t] of tensors) {
          const back = await file.read(name);
          expect(back.shape).toEqual(t.shape);
          back.data.forEach((v, i) => expect(Math.abs(v - t.data[i]!)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(t.data[i]!))));
        }
      } finally {
        await file.close();
      }
    });
  }

  it('rejects truncated files with an actionable message', async () => {
    const path = join(tmp(), 'm.safetensors');
    await writeSafetensors(path, tensors);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 4));
    await expect(SafetensorsFile.open(path)).rejects.toThrow(/past the end of the file/);
    writeFileSync(path, Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
    await expect(SafetensorsFile.open(path)).rejects.toBeInstanceOf(SafetensorsError);
  });

  it('reads sharded checkpoints through model.safetensors.index.json', async () => {
    const dir = tmp();
    await writeSafetensors(join(dir, 'model-00001-of-00002.safetensors'), new Map([['a.weight', tensors.get('a.weight')!]]));
    await writeSafetensors(join(dir, 'model-00002-of-00002.safetensors'), new Map([['b', tensors.get('b')!]]), { dtype: 'BF16' });
    writeFileSync(
      join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ metadata: {}, weight_map: { 'a.weight': 'model-00001-of-00002.safetensors', b: 'model-00002-of-00002.safetensors' } }),
    );
    const ckpt = await Checkpoint.open(dir);
    try {
      expect(ckpt.names().sort()).toEqual(['a.weight', 'b']);
      expect([...(await ckpt.read('b')).data]).toEqual([42]);
      expect((await ckpt.entry('b')).dtype).toBe('BF16');
      expect([...(await ckpt.read('a.weight')).data]).toEqual([...tensors.get('a.weight')!.data]);
      await expect(ckpt.read('missing')).rejects.toThrow(/no tensor "missing"/);
    } finally {
      await ckpt.close();
    }
  });
});
