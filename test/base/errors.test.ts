/**
 * Every error class a layer exports derives from that layer's root, and every root from
 * SqlenvError, so callers can catch a layer's failures by class.
 */
import { describe, expect, it } from 'vitest';
import { SqlenvError } from '../../src/base/sqlenv-error.js';
import * as gym from '../../src/gym/index.js';
import { GymError } from '../../src/gym/gym-error.js';
import * as onnx from '../../src/onnx/index.js';
import { OnnxError } from '../../src/onnx/onnx-error.js';
import * as lm from '../../src/lm/index.js';
import * as train from '../../src/train/index.js';
import * as remote from '../../src/remote/index.js';
import { RemoteError } from '../../src/remote/remote-error.js';
import * as sql from '../../envs/sql/index.js';
import * as recipes from '../../src/recipes/index.js';

type ErrorClass = abstract new (...args: never[]) => Error;

function errorClasses(module: Record<string, unknown>): [string, ErrorClass][] {
  return Object.entries(module).filter((e): e is [string, ErrorClass] => typeof e[1] === 'function' && e[1].prototype instanceof Error);
}

const layers: [string, Record<string, unknown>, ErrorClass][] = [
  ['gym', gym, GymError],
  ['onnx', onnx, OnnxError],
  ['lm', lm, lm.LmError],
  ['train', train, train.TrainError],
  ['remote', remote, RemoteError],
  ['envs/sql', sql, sql.SqlEnvError],
  ['recipes', recipes, recipes.RecipeError],
];

describe('typed errors', () => {
  for (const [layer, module, root] of layers) {
    it(`${layer}: every exported error class derives from ${root.name}, and ${root.name} from SqlenvError`, () => {
      expect(root.prototype).toBeInstanceOf(SqlenvError);
      const classes = errorClasses(module);
      expect(classes.length).toBeGreaterThan(0);
      const stray = classes.filter(([, cls]) => cls !== root && !(cls.prototype instanceof root)).map(([name]) => name);
      expect(stray).toEqual([]);
    });
  }

  it('names an error after its class', () => {
    expect(new train.TrainError('x').name).toBe('TrainError');
    expect(new sql.DatasetError('x').name).toBe('DatasetError');
    expect(new lm.TokenizerError('x').name).toBe('TokenizerError');
  });
});
